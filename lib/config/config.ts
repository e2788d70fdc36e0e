/** The validated agent file: every key of mm.md §2, defaulted, read-only once built. */

import type { SendReasoning } from "../history.ts";
import type { PermissionsConfig } from "../permissions/rules.ts";

/** The servers mm can talk to. */
export type ProviderName =
  | "ollama"
  | "llmman"
  | "llamacpp"
  | "lmstudio"
  | "vllm"
  | "dmr"
  | "openai";

/** Every provider name, in the order the docs list them. */
export const PROVIDERS: readonly ProviderName[] = [
  "ollama",
  "llamacpp",
  "lmstudio",
  "vllm",
  "dmr",
  "llmman",
  "openai",
];

/** The provider names as a sentence lists them: `ollama, llamacpp, … or openai`. */
export const PROVIDER_LIST = `${PROVIDERS.slice(0, -1).join(", ")} or ${PROVIDERS.at(-1)}`;

/** One language server of `lsp.servers`. */
export interface LspServerConfig {
  name: string;
  command: string;
  args: string[];
  extensions: string[];
  initializationOptions?: unknown;
}

/** One agent of `mmConfigs`, for ask_agent and /ask. */
export interface AgentRef {
  file: string;
  description?: string;
  yolo?: boolean;
}

/** One hook of `hooks.<event>`. */
export interface HookConfig {
  matcher?: string;
  command: string[];
  /** Milliseconds. */
  timeout?: number;
}

/** The five hook events of mm.md §6, in the order the docs list them (the keys of `hooks:`). */
export const HOOK_EVENTS = [
  "preGeneration",
  "preToolCall",
  "postToolCall",
  "preAsk",
  "postAsk",
] as const;

/** One of {@linkcode HOOK_EVENTS}. */
export type HookEvent = typeof HOOK_EVENTS[number];

/** One parameter of a declared tool. */
export interface DeclaredParameter {
  type: "string" | "number" | "integer" | "boolean";
  description?: string;
  enum?: (string | number | boolean)[];
  default?: string | number | boolean;
  optional?: boolean;
  /**
   * Lets a value that starts with `-` stand alone as an argument (the program may read it as an
   * option); refused otherwise unless `--` comes before it in the command.
   */
  allowDash?: boolean;
}

/** One entry of the `tools:` block. */
export interface DeclaredToolConfig {
  name: string;
  description?: string;
  command: string[];
  parameters: Record<string, DeclaredParameter>;
  /** Milliseconds. */
  timeout?: number;
}

/** How an MCP server is reached: a program over stdio, Streamable HTTP, or legacy HTTP+SSE. */
export type McpTransport = "stdio" | "http" | "sse";

/** One server of `mcpServers` (docs/mcp.md). Durations are milliseconds. */
export interface McpServerConfig {
  type: McpTransport;
  /** stdio: the program and its arguments (`command`, then `args`). */
  command: string[];
  /** stdio: the variables given besides the minimal environment, `${VAR}` expanded. */
  env: Record<string, string>;
  /** stdio: where the server runs, relative to the working directory; the working directory when absent. */
  cwd?: string;
  /** http, sse: the server's endpoint. */
  url?: string;
  /** http, sse: headers of every request, `${VAR}` expanded. */
  headers: Record<string, string>;
  /** The tools declared, as globs over the server's own tool names; absent: every tool. */
  tools?: string[];
  /** Tools never declared, as globs; applied after `tools`. */
  exclude: string[];
  /** Whether a call asks for permission when `yolo: false` (false: a trusted server). */
  ask: boolean;
  startupTimeout: number;
  /** Time one call may take. */
  timeout: number;
  enabled: boolean;
}

/** How the tools of the MCP servers are declared (`mcp:`). */
export interface McpOptions {
  /** `auto`: the two catalog tools when the declarations exceed the budget; true or false: forced. */
  catalog: boolean | "auto";
  /** Characters of MCP tool declarations above which `auto` turns to the catalog. */
  budget: number;
  /** MCP tools above which `auto` turns to the catalog. */
  maxTools: number;
}

/** How bash and declared tools are confined (`sandbox`, docs/security.md): not, or by bubblewrap. */
export type SandboxMode = "off" | "workspace" | "readonly";

/** Every value of `sandbox`, in the order the docs list them. */
export const SANDBOX_MODES: readonly SandboxMode[] = ["off", "workspace", "readonly"];

/** Whether line and window mode ring the terminal's bell (lib/frontend/terminal/notify.ts). */
export type NotifyMode = "bell" | "off";

/** Every value of `notify`, in the order the docs list them. */
export const NOTIFY_MODES: readonly NotifyMode[] = ["bell", "off"];

/** Whether the model is asked to think (`thinking`): `auto` asks nothing of the server. */
export type Thinking = "auto" | "on" | "off";

/** How hard a model that thinks thinks (`reasoningEffort`). */
export type ReasoningEffort = "low" | "medium" | "high";

/** The values of `thinking`, `reasoningEffort` and `sendReasoning`, as the docs list them. */
export const THINKING = ["auto", "on", "off"] as const;
/** See {@linkcode THINKING}. */
export const EFFORTS = ["low", "medium", "high"] as const;
/** See {@linkcode THINKING}. */
export const SEND_REASONING = ["auto", "always", "never"] as const;

/** The whole configuration, as every module reads it. Durations are milliseconds. */
export interface Config {
  /** Where the agent file came from, or undefined for built-in defaults. */
  file?: string;
  provider: ProviderName;
  url: string;
  model?: string;
  apiKey?: string;
  system?: string;
  systemFile?: string;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  contextSize?: number;
  /** Whether the model is asked to think; `auto` sends nothing. */
  thinking: Thinking;
  /** How hard it thinks, when set (llama.cpp's budget, Ollama's level, `reasoning_effort`). */
  reasoningEffort?: ReasoningEffort;
  /** Which assistant messages' reasoning the requests send back (lib/history.ts). */
  sendReasoning: SendReasoning;
  yolo: boolean;
  bashTool: boolean;
  bashTimeout: number;
  editTools: boolean;
  maxOutput: number;
  previewLines: number;
  maxTurns: number;
  watchdogTimeout: number;
  /** The longest a one-shot turn (`mm -p`) may take in all, in milliseconds. */
  turnTimeout: number;
  skillsDir: string;
  fetchContentTool: boolean;
  askUserTool: boolean;
  saveAnswerTool: boolean;
  unloadModels: boolean;
  /** Whether line and window mode warm a local server's cache with the prompt's prefix. */
  warmup: boolean;
  /** `bell`: line and window mode ring the bell after a long turn and at a question. */
  notify: NotifyMode;
  /**
   * The JSON Schema the final answer must follow (`outputSchema`, or its older name
   * `structuredOutput`: either key sets both fields, so code may read either).
   */
  structuredOutput?: Record<string, unknown>;
  /** The same schema as `structuredOutput` (the agent file's `outputSchema`). */
  outputSchema?: Record<string, unknown>;
  lsp: { servers: LspServerConfig[] };
  mmConfigs: Record<string, AgentRef>;
  sessions: {
    enabled: boolean;
    /** "": the project's folder in the user's state folder (lib/session/dirs.ts). */
    dir: string;
    /** The sessions a folder keeps, the newest; older ones are removed at start (0: all kept). */
    keep: number;
    autoSearchMemory: boolean;
    searchMemory: boolean;
  };
  hooks: Partial<Record<HookEvent, HookConfig[]>>;
  tools: DeclaredToolConfig[];
  /** The MCP servers, by name. */
  mcpServers: Record<string, McpServerConfig>;
  mcp: McpOptions;
  acp: { title: string };
  /** Window mode (`mm -tui`). */
  window: { mouse: boolean };
  /** Where bash and declared tools may write (lib/exec/sandbox.ts). */
  sandbox: SandboxMode;
  /** Whether they reach the network under a sandbox (false: `--unshare-net`). */
  sandboxNetwork: boolean;
  /** The permission rules, as written (lib/permissions/rules.ts reads them). */
  permissions: PermissionsConfig;
}

/** The default base URL of each provider (`openai`: the OpenAI API itself, `url` including `/v1`). */
export const DEFAULT_URLS: Record<ProviderName, string> = {
  ollama: "http://localhost:11434",
  llmman: "http://localhost:11434",
  llamacpp: "http://localhost:8080",
  lmstudio: "http://localhost:1234",
  vllm: "http://localhost:8000",
  dmr: "http://localhost:12434",
  openai: "https://api.openai.com/v1",
};

/** The configuration with no agent file at all: a local Ollama. */
export function defaultConfig(): Config {
  return {
    provider: "ollama",
    url: DEFAULT_URLS.ollama,
    thinking: "auto",
    sendReasoning: "auto",
    yolo: true,
    bashTool: true,
    bashTimeout: 30_000,
    editTools: true,
    maxOutput: 16_000,
    previewLines: 5,
    maxTurns: 50,
    watchdogTimeout: 120_000,
    turnTimeout: 1_800_000,
    skillsDir: ".mm/skills",
    fetchContentTool: false,
    askUserTool: true,
    saveAnswerTool: false,
    unloadModels: true,
    warmup: true,
    notify: "bell",
    lsp: { servers: [] },
    mmConfigs: {},
    sessions: { enabled: true, dir: "", keep: 200, autoSearchMemory: false, searchMemory: true },
    hooks: {},
    tools: [],
    mcpServers: {},
    mcp: { catalog: "auto", budget: 4000, maxTools: 12 },
    acp: { title: "mm" },
    window: { mouse: true },
    sandbox: "off",
    sandboxNetwork: true,
    permissions: { allow: [], ask: [], deny: [] },
  };
}

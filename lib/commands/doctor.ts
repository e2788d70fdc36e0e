/**
 * `mm doctor`: checks what a turn needs, in order — the agent file, the server, the model, tool
 * calling, the context window, the language servers, the MCP servers (doctor_mcp.ts) — and prints one line per check: `✔ …`, or
 * `✘ … — <the fix>`. Exit code 0 when every check passed, 1 otherwise.
 */

import { watchdogTimer } from "../agent/model_call.ts";
import { type StreamStop, StreamWatch } from "../agent/stream_watch.ts";
import { matchToolName } from "../agent/tool_name.ts";
import { textToolCalls } from "../agent/text_calls/mod.ts";
import { parseToolArguments } from "../tool_input.ts";
import type { Config, ProviderName } from "../config/config.ts";
import { formatDuration } from "../config/duration.ts";
import { NOT_IN_PATH, startProblem } from "../exec/program.ts";
import { sandboxOf, sandboxProblem, sandboxText, sandboxTrial } from "../exec/sandbox.ts";
import type { ChatClient, ToolSchema } from "../provider/chat.ts";
import { chatAPIText, type ContextPlan, createClient } from "../provider/client.ts";
import {
  type ContextWindowInfo,
  discoverContextWindow,
  type WindowSource,
} from "../provider/context_window.ts";
import { pullHint } from "../provider/endpoints.ts";
import { ProviderError } from "../provider/errors.ts";
import { listModels } from "../provider/models.ts";
import { sameOllamaModel } from "../provider/unload.ts";
import { writeReport } from "../frontend/terminal/output.ts";
import { mcpChecks } from "./doctor_mcp.ts";
import { redactUrl } from "../secrets.ts";
import { agentInfos } from "../subagent/ask.ts";
import { agentFilePath } from "../subagent/child.ts";
import type { LayerFile } from "../config/layers.ts";
import { mcpName } from "../config/mcp.ts";
import { neverMatches, ruleName, rulesOf } from "../permissions/rules.ts";
import { warningText } from "../presentation.ts";
import { declaredTools } from "../../tools/mod.ts";

/** One check's verdict. */
export interface Check {
  ok: boolean;
  /** What was checked and what was found. */
  text: string;
  /** For a failed check: what to do. */
  fix?: string;
}

/** The line of a check: `✔ text`, or `✘ text — fix`. */
export function checkLine(c: Check): string {
  return c.ok ? `✔ ${c.text}` : `✘ ${c.text}${c.fix ? ` — ${c.fix}` : ""}`;
}

/** Below this many tokens, a context window is too small for mm's prompt, tools and a task. */
export const MIN_CONTEXT = 8192;

/** Milliseconds the side requests (model list, /api/show, /props) may take. */
export const SIDE_TIMEOUT = 10_000;

/** The tool the tool-calling check offers the model. */
export const PROBE_TOOL: ToolSchema = {
  type: "function",
  function: {
    name: "add",
    description: "Add two numbers and return their sum.",
    parameters: {
      type: "object",
      properties: {
        a: { type: "number", description: "The first number." },
        b: { type: "number", description: "The second number." },
      },
      required: ["a", "b"],
    },
  },
};

/** The prompt of the tool-calling check. */
export const PROBE_PROMPT = "What is 2 + 3? Use the add tool to compute it.";

/** What main's loader gives mm doctor: the configuration, its files, why a file was left out. */
export interface DoctorLoad {
  config: Config;
  /** The agent files layered, each with the keys it sets (lib/config/layers.ts). */
  files?: LayerFile[];
  /** Why the project's agent file's keys that need trust were left out (not trusted). */
  refusal?: string;
}

/** What mm doctor needs: how to load the agent file (main's loader, flags applied). */
export interface DoctorOptions {
  load: () => Promise<DoctorLoad>;
  cwd: string;
  /** Where the lines go; stdout by default. */
  out?: (line: string) => void;
}

/** Runs every check, printing each line as soon as it is known. */
export async function runDoctor(opts: DoctorOptions): Promise<number> {
  const out = opts.out ?? ((line: string) => writeReport(line + "\n"));
  let failed = 0;
  const report = (c: Check) => {
    if (!c.ok) failed++;
    out(checkLine(c));
  };
  let loaded: DoctorLoad;
  try {
    loaded = await opts.load();
  } catch (e) {
    if (!(e instanceof Error) || e.name !== "ConfigError") throw e;
    report({
      ok: false,
      text: `agent file: ${e.message}`,
      fix: "fix that line, then run mm doctor again",
    });
    return 1;
  }
  const config = loaded.config;
  for (const c of layerChecks(config, loaded.files ?? [])) report(c);
  if (loaded.refusal) report({ ok: false, text: `trust: ${loaded.refusal}` });

  const sandbox = await sandboxCheck(config, opts.cwd);
  if (sandbox) report(sandbox);

  const server = await serverCheck(config);
  report(server.check);
  let chat: ChatClient | undefined;
  if (server.models) {
    // llama.cpp tells at once whether it is a router (each model listed) or one model's server.
    const first = config.provider === "llamacpp" && config.model
      ? await discoverContextWindow(config, config.model, SIDE_TIMEOUT)
      : undefined;
    const model = modelCheck(config, server.models, first !== undefined && !first.router);
    report(model.check);
    if (model.name) {
      const info = first ?? await discoverContextWindow(config, model.name, SIDE_TIMEOUT);
      const client = await createClient(config, model.name, info);
      chat = client;
      const seen = { thought: false };
      report(await toolCallCheck(config, model.name, client, info, seen));
      const context = contextCheck(config, model.name, info);
      if (context) report(context);
      report(chatAPICheck(client.plan));
      report(thinkingCheck(config, info, seen.thought));
    }
  }
  for (const c of await lspChecks(config, opts.cwd)) report(c);
  for (const c of agentChecks(config, opts.cwd)) report(c);
  for (const line of ruleLines(config, Deno.env.get("HOME"))) out(line);
  await mcpChecks(config, opts.cwd, chat, { check: report, line: out });
  return failed ? 1 : 0;
}

/** Keys that merge over the files (maps): every file that sets one is named for it. */
const MERGED: readonly string[] = [
  "lsp",
  "mmConfigs",
  "sessions",
  "hooks",
  "tools",
  "mcpServers",
  "mcp",
  "acp",
  "window",
];

/**
 * One line per agent file, with its layer and the keys whose value comes from it (a scalar from the
 * last file that sets it, a map from every file that sets a part of it); the defaults when none.
 */
export function layerChecks(config: Config, files: readonly LayerFile[]): Check[] {
  if (!files.length) {
    const where = `${config.provider} at ${redactUrl(config.url)}`;
    return [{ ok: true, text: `agent file: none found, the built-in defaults (${where})` }];
  }
  return files.map((f, i) => {
    const keys = f.keys.filter((k) =>
      MERGED.includes(k) || !files.slice(i + 1).some((later) => later.keys.includes(k))
    );
    return { ok: true, text: `agent file: ${f.file} (${f.role}: ${keys.join(", ") || "no key"})` };
  });
}

/**
 * The sandbox, when the agent file turns it on (or turns its network off): bwrap on the PATH and a
 * command run in it for real.
 */
async function sandboxCheck(config: Config, cwd: string): Promise<Check | undefined> {
  const problem = await sandboxProblem(config);
  if (problem !== undefined) return split(problem);
  const sandbox = sandboxOf(config);
  if (!sandbox) return undefined;
  const failed = await sandboxTrial(sandbox, cwd, Deno.env.get("HOME"));
  if (failed === undefined) return { ok: true, text: `sandbox: ${sandboxText(sandbox)}` };
  return {
    ok: false,
    text: `sandbox: ${sandbox.mode}: bwrap cannot run a command here (${failed})`,
    fix: 'allow bwrap its user namespaces (docs/security.md, "The sandbox"), or set sandbox: off',
  };
}

/** The server answers its model list. */
async function serverCheck(config: Config): Promise<{ check: Check; models?: string[] }> {
  try {
    const models = await listModels(config, AbortSignal.timeout(SIDE_TIMEOUT));
    return {
      check: {
        ok: true,
        text: `server: ${config.provider} at ${
          redactUrl(config.url)
        } answers (${models.length} model(s))`,
      },
      models,
    };
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    return { check: split(`server: ${e.message}`) };
  }
}

/**
 * The model is on the server, or the server's only model is picked. A llama-server of one model
 * (`single`) answers whatever model is named: another name is not a failure.
 */
function modelCheck(
  config: Config,
  models: string[],
  single = false,
): { check: Check; name?: string } {
  const { provider } = config;
  const listed = models.length ? models.join(", ") : "none";
  if (config.model && single && models.length === 1 && models[0] !== config.model) {
    return {
      check: {
        ok: true,
        text: `model: ${config.model} — the server runs one model, ${
          models[0]
        }, and answers to any name (start llama-server with \`--alias ${config.model}\` to list it by this one)`,
      },
      name: config.model,
    };
  }
  if (config.model) {
    const ollama = provider === "ollama" || provider === "llmman";
    const wanted = config.model;
    const there = models.find((m) => m === wanted || (ollama && sameOllamaModel(m, wanted)));
    if (there) {
      const others = models.filter((m) => m !== there);
      return {
        check: {
          ok: true,
          text: `model: ${wanted} is on the server${
            others.length ? ` (also there: ${others.join(", ")})` : ""
          }`,
        },
        name: wanted,
      };
    }
    return {
      check: {
        ok: false,
        text: `model: ${wanted} is not on the server, which has: ${listed}`,
        fix: pullHint(provider, wanted).includes("set `model`")
          ? pullHint(provider, wanted)
          : `${pullHint(provider, wanted)}, or set \`model\` to one it has`,
      },
    };
  }
  if (models.length === 1) {
    return {
      check: {
        ok: true,
        text: `model: none set, so the server's only model is used: ${models[0]}`,
      },
      name: models[0],
    };
  }
  if (models.length === 0) {
    return {
      check: {
        ok: false,
        text: "model: the server has no model",
        fix: provider === "ollama" || provider === "llmman"
          ? "pull one with `ollama pull <model>`, then run mm doctor again"
          : "load a model on the server, then run mm doctor again",
      },
    };
  }
  return {
    check: {
      ok: false,
      text: `model: none set, and the server has ${models.length}: ${listed}`,
      fix: "set `model` in the agent file (or pass --model)",
    },
  };
}

/** The probe tool as the text-call recogniser knows it: its name and parameter types. */
const PROBE_PARAMETERS = {
  name: PROBE_TOOL.function.name,
  parameters: PROBE_TOOL.function.parameters.properties as Record<string, { type: string }>,
};

/** One tiny streamed request with one tool: a tool call must come back. */
async function toolCallCheck(
  config: Config,
  model: string,
  chat: ChatClient,
  info: ContextWindowInfo,
  seen: { thought: boolean } = { thought: false },
): Promise<Check> {
  const controller = new AbortController();
  const silence = config.watchdogTimeout;
  // A turn's own watch (lib/agent/stream_watch.ts): its watchdog, which does not count the waits
  // a 429 asks for, and its stop of a call that runs away or a model that repeats itself.
  const watch = new StreamWatch({ silence, tools: [PROBE_PARAMETERS] }, Date.now());
  const clear = watchdogTimer(watch, () => controller.abort());
  try {
    const result = await chat.stream({
      messages: [
        {
          role: "system",
          content: "You are a test of tool calling. Answer by calling the tool you are given.",
        },
        { role: "user", content: PROBE_PROMPT },
      ],
      tools: [PROBE_TOOL],
      signal: controller.signal,
      onWait: (ms) => watch.wait(ms, Date.now()),
      onDelta: (d) => {
        if (d.type === "thought" && d.text.trim()) seen.thought = true;
        if (watch.push(d, Date.now()).stop) controller.abort();
      },
    });
    // mm runs what its agent core forgives (docs/small-models.md): a call written as text, a
    // name that differs only by case or separators. Say so: the model works with mm.
    const name = PROBE_TOOL.function.name;
    const notes: string[] = [];
    let call: { name: string; arguments: string } | undefined = result.toolCalls[0];
    if (!call) {
      call = textToolCalls(result.text, [PROBE_PARAMETERS])?.calls[0];
      if (call) notes.push("written as text, which mm recognises");
    }
    if (call && call.name !== name && matchToolName(call.name, [name])) {
      notes.push(`named "${call.name}", which mm takes for "${name}"`);
    }
    if (!call) {
      return {
        ok: false,
        text: `tool calling: ${model} answered in text instead of calling the test tool`,
        fix: toolHint(config, info),
      };
    }
    if (!matchToolName(call.name, [name])) {
      return {
        ok: false,
        text: `tool calling: ${model} called "${call.name}", a tool it was not given`,
        fix: toolHint(config, info),
      };
    }
    const args = parseToolArguments(call.arguments);
    if (!args.ok) {
      return {
        ok: false,
        text: `tool calling: ${model} called the test tool, but ${args.reason}`,
        fix: toolHint(config, info),
      };
    }
    return {
      ok: true,
      text: `tool calling: ${model} called the test tool (add ${JSON.stringify(args.value)})${
        notes.map((n) => `, ${n}`).join("")
      }`,
    };
  } catch (e) {
    const stop = watch.stopped;
    if (stop?.reason === "watchdog") {
      return {
        ok: false,
        text: `tool calling: ${model} sent nothing for ${formatDuration(silence)}`,
        fix:
          "the server may still be loading the model: run mm doctor again, or raise watchdogTimeout",
      };
    }
    if (stop) return { ok: false, text: stoppedText(model, stop), fix: toolHint(config, info) };
    if (!(e instanceof ProviderError)) throw e;
    return split(`tool calling: ${e.message}`);
  } finally {
    clear();
  }
}

/**
 * Whether the model thinks: llama.cpp's `/props` template says so, or the tool-call check's answer
 * carried reasoning. Never fails: a model that thinks or not both work with mm.
 */
export function thinkingCheck(
  config: Config,
  info: ContextWindowInfo,
  thought: boolean,
): Check {
  const thinks = thought || info.templateThinks === true;
  if (!thinks) return { ok: true, text: "thinking: no" };
  if (config.thinking === "off") {
    return { ok: true, text: "thinking: the model can think; turned off (thinking: off)" };
  }
  return {
    ok: true,
    text: `thinking: the model thinks (reasoning sent back: ${config.sendReasoning})`,
  };
}

/** The line of a probe the watch stopped: a call that ran away, a model repeating itself. */
function stoppedText(model: string, stop: StreamStop): string {
  const why = stop.reason === "runaway"
    ? "its call ran away (its arguments kept repeating)"
    : "it kept repeating itself";
  return `tool calling: ${model} was stopped: ${why}`;
}

/**
 * What to do when a model does not call tools, by provider; for llama.cpp, by what its `/props`
 * says of the chat template (jinja is on by default in its current builds).
 */
function toolHint(config: Config, info: ContextWindowInfo): string {
  switch (config.provider) {
    case "llamacpp":
      return info.templateTools === false
        ? "llama-server's chat template does not handle tools (/props: supports_tool_calls is false): start it with a template that does (`--chat-template-file`, or the model's own with `--jinja`), or use a model trained for tool calls (Qwen2.5-Coder, Qwen3, Llama 3.1 and later)"
        : "use a model trained for tool calls (Qwen2.5-Coder, Qwen3, Llama 3.1 and later)";
    case "ollama":
    case "llmman":
      return "use a model whose template supports tools (Qwen2.5-Coder, Qwen3, Llama 3.1 and later: ollama.com/search?c=tools)";
    default:
      return "use a model trained for tool calls (Qwen2.5-Coder, Qwen3, Llama 3.1 and later)";
  }
}

/** Where each provider that tells its window tells it, and how a person changes it. */
const SERVER_WINDOWS: Partial<
  Record<ProviderName, {
    source: WindowSource;
    server: string;
    origin: string;
    restart: (size: number, model: string) => string;
  }>
> = {
  llamacpp: {
    source: "props",
    server: "llama-server",
    origin: "llama-server's /props",
    restart: (size) => `restart llama-server with -c ${size}`,
  },
  dmr: {
    source: "dmr",
    server: "Docker Model Runner",
    origin: "the model's context_size",
    restart: (size, model) => `run \`docker model configure --context-size ${size} ${model}\``,
  },
  lmstudio: {
    source: "lmstudio",
    server: "LM Studio",
    origin: "LM Studio's loaded model",
    restart: (size, model) => `reload it with \`lms load ${model} --context-length ${size}\``,
  },
  vllm: {
    source: "vllm",
    server: "vLLM",
    origin: "vLLM's max_model_len",
    restart: (size) => `restart vllm serve with --max-model-len ${size}`,
  },
};

/**
 * The context window, when the server tells it: Ollama's `/api/show`, llama.cpp's `/props` (and
 * `/v1/models`' `n_ctx_train`), Docker Model Runner's `context_size` (and the GGUF maximum),
 * LM Studio's loaded context length (and its maximum), vLLM's `max_model_len`.
 */
export function contextCheck(
  config: Config,
  model: string,
  info: ContextWindowInfo,
): Check | undefined {
  if (config.provider === "ollama" || config.provider === "llmman") {
    const max = info.modelMax;
    if (max === undefined) return undefined;
    if (config.contextSize && config.contextSize > max) {
      return {
        ok: false,
        text:
          `context window: contextSize ${config.contextSize} is more than ${model} holds (${max} tokens)`,
        fix: `lower contextSize to ${max} or less`,
      };
    }
    if (max < MIN_CONTEXT) {
      return {
        ok: false,
        text:
          `context window: ${model} holds at most ${max} tokens, too few for mm's prompt, tools and a task`,
        fix: `use a model with a context of ${MIN_CONTEXT} tokens or more`,
      };
    }
    return { ok: true, text: `context window: ${model} holds up to ${max} tokens (/api/show)` };
  }
  const told = SERVER_WINDOWS[config.provider];
  if (told) {
    const n = info.serverSource === told.source ? info.serverWindow : undefined;
    if (n === undefined) return undefined;
    const server = told.server;
    const max = info.modelMax;
    const trained = max ? ` (trained for ${max})` : "";
    const restart = (size: number) => told.restart(size, model);
    if (n < MIN_CONTEXT) {
      // Twice the least, or all the model holds when that is less.
      const wanted = Math.min(MIN_CONTEXT * 2, max ?? Infinity);
      return {
        ok: false,
        text:
          `context window: ${server} runs ${model} with ${n} tokens${trained}, too few for mm's prompt, tools and a task`,
        fix: wanted < MIN_CONTEXT
          ? `use a model with a context of ${MIN_CONTEXT} tokens or more`
          : `${restart(wanted)}${wanted === MIN_CONTEXT * 2 ? " (or more)" : ""}`,
      };
    }
    if (config.contextSize && config.contextSize > n) {
      return {
        ok: false,
        text:
          `context window: contextSize ${config.contextSize} is more than ${server}'s ${n} tokens`,
        fix: `${restart(config.contextSize)}, or lower contextSize to ${n}`,
      };
    }
    return {
      ok: true,
      text: `context window: ${n} tokens (${told.origin})${
        max ? `; the model was trained for ${max}` : ""
      }`,
    };
  }
  return undefined;
}

/** Each agent of `mmConfigs` has a file that can start it. */
export function agentChecks(config: Config, cwd: string): Check[] {
  return agentInfos(config, Deno.env.toObject(), cwd).map((a): Check =>
    a.fault
      ? {
        ok: false,
        text: `agent ${a.name}: ${a.fault}`,
        fix: `fix its agent file, or mmConfigs.${a.name}.file in ${
          config.file ?? "the agent file"
        }`,
      }
      : {
        ok: true,
        text: `agent ${a.name}: ${agentFilePath(a.ref, config)} (${a.provider}${
          a.model ? `, ${a.model}` : ""
        })`,
      }
  );
}

/**
 * The permission rules in force (`permissions:`), strongest first, each followed by a warning when
 * it can never match (lib/permissions/rules.ts, neverMatches); a rule is never a failure.
 */
export function ruleLines(config: Config, home?: string): string[] {
  const rules = rulesOf(config.permissions);
  const mode = `yolo: ${config.yolo} decides the rest`;
  if (!rules.length) return [checkLine({ ok: true, text: `permission rules: none (${mode})` })];
  const declared = [
    ...declaredTools(config).map((t) => t.name),
    ...(config.lsp.servers.length ? ["lsp"] : []),
    ...(Object.keys(config.mmConfigs).length ? ["ask_agent"] : []),
    "read_skill",
    ...config.tools.map((t) => t.name),
  ];
  const world = { declared, mcpServers: Object.keys(config.mcpServers).map(mcpName), home };
  const lines = [checkLine({ ok: true, text: `permission rules: ${rules.length} (${mode})` })];
  for (const rule of rules) {
    lines.push(`    ${ruleName(rule)}`);
    const never = neverMatches(rule, rules, world);
    if (never) lines.push(`    ${warningText(`${ruleName(rule)} can never match: ${never}`)}`);
  }
  return lines;
}

/** Each language server of `lsp.servers` can be started: its command is on the PATH. */
async function lspChecks(config: Config, cwd: string): Promise<Check[]> {
  const checks: Check[] = [];
  for (const [i, server] of config.lsp.servers.entries()) {
    const problem = await startProblem([server.command], cwd);
    if (problem === undefined) {
      checks.push({ ok: true, text: `LSP server ${server.name}: ${server.command} found` });
    } else {
      const what = problem === NOT_IN_PATH
        ? "is not on the PATH"
        : `cannot be started (${problem})`;
      checks.push({
        ok: false,
        text: `LSP server ${server.name}: ${server.command} ${what}`,
        fix: `install it, or fix lsp.servers[${i}].command in the agent file`,
      });
    }
  }
  return checks;
}

/**
 * The API mm talks and the window it budgets for: not a pass when `contextSize` promises more than
 * the server said it runs (mm would send what the server refuses).
 */
function chatAPICheck(plan: ContextPlan): Check {
  const server = plan.info.serverWindow;
  // With Ollama's native API mm sends the window as num_ctx: only the OpenAI path can promise more.
  if (
    plan.api === "openai" && plan.source === "contextSize" && server !== undefined &&
    plan.window! > server
  ) {
    return {
      ok: false,
      text: `${chatAPIText(plan)}, but the server runs ${server}`,
      fix: `lower contextSize to ${server}, or give the server a larger window`,
    };
  }
  return { ok: true, text: chatAPIText(plan) };
}

/** A provider sentence `what — fix` as a failed check. */
function split(sentence: string): Check {
  const at = sentence.lastIndexOf(" — ");
  if (at < 0) return { ok: false, text: sentence };
  return { ok: false, text: sentence.slice(0, at), fix: sentence.slice(at + 3) };
}

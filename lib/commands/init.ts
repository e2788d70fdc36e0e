/**
 * `mm init`: writes a commented starter agent file, `mm.yaml`, in the working directory, for the
 * model server it finds running on this machine. It never overwrites an agent file.
 */

import { join } from "node:path";
import {
  DEFAULT_URLS,
  defaultConfig,
  PROVIDER_LIST,
  type ProviderName,
  PROVIDERS,
} from "../config/config.ts";
import { modelsURL, pullHint } from "../provider/endpoints.ts";
import { lmstudioChatModels } from "../provider/models.ts";
import { requestServer } from "../provider/http.ts";
import { writeAll, writeReport } from "../frontend/terminal/output.ts";
import { redactUrl } from "../secrets.ts";
import { UserError } from "../presentation.ts";
import { exists } from "../files.ts";

/** One place to look for a running server. */
export interface Probe {
  provider: ProviderName;
  url: string;
}

/**
 * Where mm init looks, in this order: Ollama, llama.cpp's llama-server, Docker Model Runner,
 * LM Studio, vLLM.
 */
export const DEFAULT_PROBES: readonly Probe[] = [
  { provider: "ollama", url: DEFAULT_URLS.ollama },
  { provider: "llamacpp", url: DEFAULT_URLS.llamacpp },
  { provider: "dmr", url: DEFAULT_URLS.dmr },
  { provider: "lmstudio", url: DEFAULT_URLS.lmstudio },
  { provider: "vllm", url: DEFAULT_URLS.vllm },
];

/** Milliseconds a probe waits for a server on this machine. */
export const PROBE_TIMEOUT = 1_000;

/** The model suggested when the server has none. */
export const SUGGESTED_MODEL = "qwen2.5-coder:7b";

/**
 * The probes `$MM_INIT_PROBE` names instead of the defaults: `provider=url` pairs separated by
 * commas (`ollama=http://127.0.0.1:9001,llamacpp=http://127.0.0.1:9002`). Unset or empty: the
 * defaults. Throws a one-line message for an entry it cannot read.
 */
export function probesFrom(value: string | undefined): Probe[] {
  if (!value?.trim()) return [...DEFAULT_PROBES];
  return value.split(",").map((entry) => entry.trim()).filter(Boolean).map((entry) => {
    const eq = entry.indexOf("=");
    const provider = entry.slice(0, eq).trim() as ProviderName;
    const url = entry.slice(eq + 1).trim().replace(/\/+$/, "");
    if (eq < 0 || !PROVIDERS.includes(provider) || !/^https?:\/\/\S+$/.test(url)) {
      throw new InitError(
        `MM_INIT_PROBE: "${entry}" is not provider=url (e.g. ollama=http://127.0.0.1:11434)`,
      );
    }
    return { provider, url };
  });
}

/** A fault that stops mm init before anything is written. */
export class InitError extends UserError {
  /** Builds the error from its one-line message. */
  constructor(message: string) {
    super(message, 2);
    this.name = "InitError";
  }
}

/** What a probe found: the server's models. */
export interface Found extends Probe {
  models: string[];
}

/**
 * Whether `probe`'s server answers its model list in the provider's own shape (so another web
 * server on port 8080 is not taken for llama-server), and which models it lists.
 */
export async function probeServer(
  probe: Probe,
  timeout = PROBE_TIMEOUT,
): Promise<Found | undefined> {
  if (probe.provider === "lmstudio") {
    // Its native list names the chat models apart from the embeddings, loaded ones first.
    const config = { ...defaultConfig(), provider: probe.provider, url: probe.url };
    const native = await lmstudioChatModels(config, AbortSignal.timeout(timeout));
    if (native !== undefined) {
      const models = [...native.filter((m) => m.loaded), ...native.filter((m) => !m.loaded)];
      return { ...probe, models: models.map((m) => m.key) };
    }
  }
  const answer = await requestServer({
    url: modelsURL(probe.provider, probe.url),
    timeout,
    discardErrorBody: true,
  });
  if (answer.kind !== "ok") return undefined;
  const body = answer.json as { models?: unknown; data?: unknown } | undefined;
  const list = probe.provider === "ollama" || probe.provider === "llmman"
    ? body?.models
    : body?.data;
  if (!Array.isArray(list)) return undefined;
  const models = list.map((m: { name?: unknown; id?: unknown; model?: unknown }) =>
    m?.name ?? m?.id ?? m?.model
  ).filter((n: unknown): n is string => typeof n === "string" && n !== "");
  return { ...probe, models };
}

/**
 * The starter agent file for `found` (the server's models), or, with none found, for `asked` (the
 * server `--provider`/`--url` named) else for Ollama. `chosen` is `--model`: written as it is.
 */
export function starterFile(found: Found | undefined, asked?: Probe, chosen?: string): string {
  const provider = found?.provider ?? asked?.provider ?? "ollama";
  const url = found?.url ?? asked?.url ?? DEFAULT_URLS.ollama;
  const models = found?.models ?? [];
  // The credentials of the URL go in `url:` alone, never in a comment.
  const shown = redactUrl(url);
  const head = found
    ? `# Written by mm init for the ${provider} server found at ${shown}.`
    : asked
    ? `# Written by mm init for the ${provider} server at ${shown}, which did not answer.`
    : `# Written by mm init: no model server answered, so this file is for Ollama.`;
  let model: string;
  if (chosen !== undefined) model = `model: ${chosen}`;
  else if (models.length === 0) {
    model = `# model: ${provider === "ollama" ? SUGGESTED_MODEL : "<model>"} # ${
      pullHint(provider, provider === "ollama" ? SUGGESTED_MODEL : "<model>")
    }, then uncomment this line`;
  } else {
    const others = models.slice(1);
    model = `model: ${models[0]}${
      others.length ? ` # the server also has: ${others.join(", ")}` : ""
    }`;
  }
  return [
    "# mm agent file. Every key, its default and its errors: docs/agent-file.md in mm's sources.",
    head,
    "# A commented line shows a key at its default (or an example): uncomment it to change it.",
    "",
    `provider: ${provider} # ${PROVIDER_LIST}`,
    `url: ${url}`,
    model,
    "",
    "# apiKey: sk-example          # sent as a bearer token; default $MM_API_KEY, else none",
    "# system: You are a careful coding assistant. # the system prompt; default mm's own",
    "# systemFile: prompts/system.md # the system prompt from a file (not with system)",
    "# temperature: 0.2            # sampling and context: default the server's",
    "# topP: 0.9",
    "# maxTokens: 4096",
    "# contextSize: 16384",
    "",
    "# yolo: true                  # run tool calls without asking; false asks (and refuses in mm -p)",
    "# bashTool: true              # declare bash",
    "# bashTimeout: 30s            # default timeout of bash and declared tools",
    "# editTools: true             # declare read_file, write_file and edit_file",
    "# maxOutput: 16000            # characters of tool output the model reads",
    "# previewLines: 5             # lines of tool output shown in line mode",
    "# maxTurns: 50                # model calls in one turn before it stops",
    "# watchdogTimeout: 120s       # silence of the model that ends a turn",
    "# turnTimeout: 30m            # the longest a -p turn may take in all",
    "# skillsDir: .mm/skills       # skills for read_skill",
    "# fetchContentTool: false     # declare fetch_content",
    "# askUserTool: true           # declare ask_user",
    "# saveAnswerTool: false       # declare save_answer",
    "# unloadModels: true          # declare unload_model",
    "",
    "# sandbox: off                # workspace: bash and declared tools write only here and in a",
    "#                             #   private /tmp (bubblewrap, Linux: apt install bubblewrap);",
    "#                             #   readonly: only in the private /tmp",
    "# sandboxNetwork: true        # false: no network for them inside the sandbox",
    "",
    "# sessions:",
    "#   enabled: true             # save every conversation to a session file, by default in",
    "#                             #   ~/.local/state/mm/sessions/<project>; dir: sets another folder",
    "#   keep: 200                 # the newest sessions kept; older ones are removed at start",
    "#   autoSearchMemory: false   # declare search_memory",
    "#   searchMemory: true        # allow /memory",
    "",
    "# lsp:",
    "#   servers:                  # language servers for the lsp tool; none by default, e.g.:",
    "#     - name: deno",
    "#       command: deno",
    "#       args: [lsp]",
    "#       extensions: [.ts, .tsx, .js]",
    "",
    "# acp:",
    "#   title: mm                 # the agent's name shown by editors",
    "",
    "# More keys in docs/agent-file.md: structuredOutput, mmConfigs, hooks, tools (declared tools).",
    "",
  ].join("\n");
}

/** What mm init needs. */
export interface InitOptions {
  cwd: string;
  /** `--provider`: look only for this server (at `url`, else at its default address). */
  provider?: ProviderName;
  /** `--url`: look only there (as `provider`, else as each provider in turn). */
  url?: string;
  /** `--model`: the model written, whatever the server lists. */
  model?: string;
  /** Where to look; else where `probeSetting` says; else {@linkcode DEFAULT_PROBES}. */
  probes?: readonly Probe[];
  /** The value of `$MM_INIT_PROBE`, read by {@linkcode probesFrom}. */
  probeSetting?: string;
  /** Where the lines go; stdout and stderr by default. */
  out?: (text: string) => void;
  err?: (text: string) => void;
}

/**
 * Runs mm init: 0 written; 1 an agent file is already there, or the file cannot be written
 * (nothing written); 2 a `$MM_INIT_PROBE` that cannot be read.
 */
export async function runInit(opts: InitOptions): Promise<number> {
  const out = opts.out ?? writeReport; // a server's model id among mm's words
  const err = opts.err ?? ((t: string) => writeAll(Deno.stderr, t));
  const target = join(opts.cwd, "mm.yaml");
  for (const existing of [target, join(opts.cwd, ".mm", "mm.yaml")]) {
    if (await exists(existing)) {
      err(
        `mm: ${existing} already exists — nothing was written; edit it, or move it away and run mm init again\n`,
      );
      return 1;
    }
  }
  let probes: readonly Probe[];
  const asked = askedServer(opts);
  try {
    probes = asked ? askedProbes(opts) : opts.probes ?? probesFrom(opts.probeSetting);
  } catch (e) {
    if (!(e instanceof InitError)) throw e;
    err(`mm: ${e.message}\n`);
    return 2;
  }
  const results = await Promise.all(probes.map((p) => probeServer(p)));
  const found = results.find((r) => r !== undefined);
  try {
    await Deno.writeTextFile(target, starterFile(found, asked, opts.model), { createNew: true });
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists) {
      err(`mm: ${target} already exists — nothing was written\n`);
      return 1;
    }
    err(`mm: cannot write ${target}: ${(e as Error).message}\n`);
    return 1;
  }
  if (!found && asked) {
    out(
      `no ${opts.provider ?? "model"} server answered at ${asked.url}\n` +
        `wrote ${target} for ${asked.provider} at ${asked.url} — start the server, then run mm doctor\n`,
    );
    return 0;
  }
  if (!found) {
    const where = probes.map((p) => `${p.provider} at ${p.url}`).join(", ");
    out(
      `no model server answered (${where})\n` +
        `wrote ${target} for ollama at ${DEFAULT_URLS.ollama} — start the server with \`ollama serve\`, ` +
        `pull a model with \`ollama pull ${SUGGESTED_MODEL}\`, then run mm doctor\n`,
    );
    return 0;
  }
  const others = results.filter((r): r is Found => r !== undefined && r !== found);
  const also = others.length
    ? ` (also running: ${others.map((o) => `${o.provider} at ${o.url}`).join(", ")})`
    : "";
  const model = opts.model !== undefined
    ? `model ${opts.model}`
    : found.models.length
    ? `model ${found.models[0]}`
    : `no model yet — ${
      pullHint(found.provider, found.provider === "ollama" ? SUGGESTED_MODEL : "<model>")
    }`;
  out(
    `found ${found.provider} at ${found.url} with ${found.models.length} model(s)${also}\n` +
      `wrote ${target} for ${found.provider}, ${model} — check it with mm doctor\n`,
  );
  return 0;
}

/** The server `--provider` and `--url` name, when they name one: written when it does not answer. */
function askedServer(opts: InitOptions): Probe | undefined {
  if (opts.provider === undefined && opts.url === undefined) return undefined;
  const provider = opts.provider ?? "ollama";
  return { provider, url: opts.url ?? DEFAULT_URLS[provider] };
}

/** Where to look when `--provider` or `--url` says: that server, or that URL as each provider. */
function askedProbes(opts: InitOptions): Probe[] {
  if (opts.url === undefined) return [askedServer(opts)!];
  const providers = opts.provider ? [opts.provider] : PROBE_ORDER;
  return providers.map((provider) => ({ provider, url: opts.url! }));
}

/** The providers a `--url` alone is tried as, in this order (one server answers one shape). */
const PROBE_ORDER: readonly ProviderName[] = ["ollama", "llamacpp", "dmr", "openai"];

/** Command-line flags, Go style (`-p`, `-tui`, `-yolo=false`) and GNU style (`--prompt`, `--tui`). */

import { PROVIDER_LIST } from "../config/config.ts";
import { nearest } from "../nearest.ts";
import { UserError } from "../presentation.ts";

/** Everything the command line can say. */
export interface Flags {
  /**
   * `-p` given: the prompt, `-` for stdin, or "" when no value followed (then stdin) — unless one
   * argument follows the flags after it (`-p --continue "again"`), which is the prompt.
   */
  prompt?: string;
  tui: boolean;
  /** `--no-mouse`: window mode leaves the mouse to the terminal. */
  noMouse: boolean;
  acp: boolean;
  config?: string;
  model?: string;
  provider?: string;
  url?: string;
  yolo?: boolean;
  /** `--thinking on|off|low|medium|high`: the model's thinking, over the agent file's. */
  thinking?: string;
  continue: boolean;
  /** `-r`, `--resume`: pick one of this directory's sessions (line and window mode). */
  resume: boolean;
  session?: string;
  json: boolean;
  /** `--output-schema FILE`: with -p, the JSON Schema the answer must follow. */
  outputSchema?: string;
  /** `--timeout DURATION`: with -p, the longest the whole run may take (then exit 124). */
  timeout?: string;
  /** `--plan`: with -p, plan mode — only reading runs (docs/oneshot.md). */
  plan: boolean;
  version: boolean;
  help: boolean;
  /** `--trust`: the project's agent file is trusted for this run (docs/security.md). */
  trust: boolean;
  /** `mm trust --list`: the trusted folders. */
  list: boolean;
  /** `mm trust --revoke [DIR]`: the folder's trust taken back. */
  revoke: boolean;
  /** `mm trust --yes`: trusted without the y/N question (for scripts). */
  yes: boolean;
  /** `--ask NAME`: the agent of `mmConfigs` to run once. */
  ask?: string;
  /** `init`, `doctor`, `sessions` or `trust`. */
  command?: "init" | "doctor" | "sessions" | "trust" | "undo";
  /** Arguments left after the flags (the prompt of `--ask`). */
  args: string[];
}

/** A command line that cannot be understood: one line, exit code 2. */
export class UsageError extends UserError {
  /** Builds the error, saying how to get help: `help` is the command whose `--help` to run. */
  constructor(message: string, help = "mm") {
    super(`${message} — run ${help} --help for the flags`, 2);
    this.name = "UsageError";
  }
}

/** One flag's names, whether it takes a value, and its help line. */
interface FlagSpec {
  names: string[];
  kind: "bool" | "value" | "optionalValue";
  key: keyof Flags;
  arg?: string;
  help: string;
}

/** Every flag, in the order `--help` lists them. */
export const FLAG_SPECS: readonly FlagSpec[] = [
  {
    names: ["p", "prompt"],
    kind: "optionalValue",
    key: "prompt",
    arg: "PROMPT",
    help: "run one turn and print the answer; `-p -` or no value reads the prompt from stdin",
  },
  { names: ["tui"], kind: "bool", key: "tui", help: "window mode: a full-screen conversation" },
  {
    names: ["no-mouse"],
    kind: "bool",
    key: "noMouse",
    help: "window mode: leave the mouse to the terminal (else window.mouse of the agent file)",
  },
  {
    names: ["acp"],
    kind: "bool",
    key: "acp",
    help: "editor mode: an Agent Client Protocol agent on stdio",
  },
  {
    names: ["ask"],
    kind: "value",
    key: "ask",
    arg: "NAME",
    help: "run agent NAME of mmConfigs once on the prompt that follows and print its answer",
  },
  {
    names: ["c", "config"],
    kind: "value",
    key: "config",
    arg: "FILE",
    help: "an agent file over the user's and the project's (else $MM_CONFIG)",
  },
  {
    names: ["trust"],
    kind: "bool",
    key: "trust",
    help: "trust the project's agent file (./.mm/mm.yaml, ./mm.yaml) for this run",
  },
  {
    names: ["model"],
    kind: "value",
    key: "model",
    arg: "MODEL",
    help: "the model, over the agent file's",
  },
  {
    names: ["provider"],
    kind: "value",
    key: "provider",
    arg: "NAME",
    help: `${PROVIDER_LIST}, over the agent file's`,
  },
  {
    names: ["url"],
    kind: "value",
    key: "url",
    arg: "URL",
    help: "the server's base URL, over the agent file's",
  },
  {
    names: ["thinking"],
    kind: "value",
    key: "thinking",
    arg: "MODE",
    help: "on, off, low, medium or high: the model's thinking, over the agent file's",
  },
  {
    names: ["yolo"],
    kind: "bool",
    key: "yolo",
    help: "run tool calls without asking; --yolo=false asks (and refuses them in -p)",
  },
  {
    names: ["continue"],
    kind: "bool",
    key: "continue",
    help: "resume the latest session of this directory",
  },
  {
    names: ["r", "resume"],
    kind: "bool",
    key: "resume",
    help: "choose a session of this directory to resume from a list (not with -p)",
  },
  { names: ["session"], kind: "value", key: "session", arg: "ID", help: "resume session ID" },
  {
    names: ["json"],
    kind: "bool",
    key: "json",
    help: "with -p: write the turn's events as JSON lines on stdout (docs/json-events.md)",
  },
  {
    names: ["output-schema"],
    kind: "value",
    key: "outputSchema",
    arg: "FILE",
    help: "with -p: the answer must be JSON valid against this JSON Schema (else exit 1)",
  },
  {
    names: ["timeout"],
    kind: "value",
    key: "timeout",
    arg: "DURATION",
    help: "with -p: stop the whole run after DURATION (30s, 10m) and exit 124",
  },
  {
    names: ["plan"],
    kind: "bool",
    key: "plan",
    help: "with -p: plan mode — only reading runs; the model answers with a plan",
  },
  {
    names: ["list"],
    kind: "bool",
    key: "list",
    help: "with mm trust: list the trusted folders",
  },
  {
    names: ["revoke"],
    kind: "bool",
    key: "revoke",
    help: "with mm trust: take back the trust of DIR (else this folder)",
  },
  {
    names: ["yes"],
    kind: "bool",
    key: "yes",
    help: "with mm trust: trust without asking y/N (for scripts)",
  },
  { names: ["v", "version"], kind: "bool", key: "version", help: "print the version and exit" },
  { names: ["h", "help"], kind: "bool", key: "help", help: "print this help and exit" },
];

const COMMANDS = ["init", "doctor", "sessions", "trust", "undo"] as const;

/** Parses argv (without the program name). Throws UsageError for anything it cannot place. */
export function parseFlags(argv: string[]): Flags {
  const flags: Flags = {
    tui: false,
    noMouse: false,
    acp: false,
    trust: false,
    list: false,
    revoke: false,
    yes: false,
    continue: false,
    resume: false,
    json: false,
    plan: false,
    version: false,
    help: false,
    args: [],
  };
  const set = flags as unknown as Record<string, unknown>;
  // After a subcommand (`mm undo --bogus`), the error points to that subcommand's --help.
  const usage = (message: string) =>
    new UsageError(message, flags.command ? `mm ${flags.command}` : undefined);
  const allNames = FLAG_SPECS.flatMap((s) => s.names);
  let onlyArgs = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (onlyArgs || !arg.startsWith("-") || arg === "-") {
      if (!flags.command && !flags.ask && flags.args.length === 0 && isCommand(arg)) {
        flags.command = arg;
      } else flags.args.push(arg);
      continue;
    }
    if (arg === "--") {
      onlyArgs = true;
      continue;
    }
    const body = arg.replace(/^--?/, "");
    const eq = body.indexOf("=");
    const name = eq < 0 ? body : body.slice(0, eq);
    const inline = eq < 0 ? undefined : body.slice(eq + 1);
    const spec = FLAG_SPECS.find((s) => s.names.includes(name));
    if (!spec) {
      const near = nearest(name, allNames);
      throw usage(
        `unknown flag ${arg}${near ? ` (did you mean ${dashes(near)}${near}?)` : ""}`,
      );
    }
    const shown = `${dashes(name)}${name}`;
    if (spec.kind === "bool") {
      if (inline === undefined) set[spec.key] = true;
      else {
        const b = parseBool(inline);
        if (b === undefined) {
          throw usage(`${shown} takes true or false, not "${inline}"`);
        }
        set[spec.key] = b;
      }
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = argv[i + 1];
      // A prompt may start with a dash (`-p "-list the files"`) when it is not a flag's name, nor
      // one word that reads as a flag (`--jsno`, `-contineu`: a misspelt flag, said so).
      const flagLike = next?.startsWith("-") && next !== "-" &&
        (spec.kind !== "optionalValue" || isFlagName(next, allNames) ||
          readsAsFlag(next, allNames));
      if (next !== undefined && !flagLike) {
        value = next;
        i++;
      }
    }
    if (value === undefined) {
      if (spec.kind === "optionalValue") value = "";
      else throw usage(`${shown} needs a value (${spec.arg})`);
    }
    set[spec.key] = value;
  }
  // `mm -p --continue "again"`: flags between -p and its prompt; the one argument is the prompt.
  if (flags.prompt === "" && !flags.command && flags.args.length === 1) {
    flags.prompt = flags.args.shift();
  }
  // `mm docter`: a command misspelt, not a prompt (which goes with -p).
  const first = flags.args[0];
  if (!flags.command && flags.prompt === undefined && !flags.ask && first !== undefined) {
    const near = /^[a-z]+$/i.test(first) ? nearest(first, COMMANDS) : undefined;
    if (near) throw usage(`unknown command "${first}" (did you mean mm ${near}?)`);
  }
  // `mm --ask NAME -p x` would send "x" as the prompt's start: one way to give it.
  if (flags.ask !== undefined && flags.prompt !== undefined) {
    throw usage(`--ask ${flags.ask} takes its prompt after the name, not with -p`);
  }
  return flags;
}

/** Whether `arg`, one word, reads as a flag: `--` and a name, or a near miss of a flag's name. */
function readsAsFlag(arg: string, names: string[]): boolean {
  if (/\s/.test(arg)) return false;
  if (/^--[A-Za-z]/.test(arg)) return true;
  const name = arg.replace(/^-+/, "").split("=")[0];
  return nearest(name, names) !== undefined;
}

/** Whether `arg` names a known flag (`--json`, `-yolo=false`). */
function isFlagName(arg: string, names: string[]): boolean {
  if (arg === "--") return true;
  const body = arg.replace(/^--?/, "");
  const eq = body.indexOf("=");
  return names.includes(eq < 0 ? body : body.slice(0, eq));
}

function isCommand(arg: string): arg is Flags["command"] & string {
  return (COMMANDS as readonly string[]).includes(arg);
}

function dashes(name: string): string {
  return name.length === 1 ? "-" : "--";
}

/** Go's boolean flag values: 1, 0, t, f, true, false, in any case. */
function parseBool(text: string): boolean | undefined {
  const t = text.toLowerCase();
  if (t === "1" || t === "t" || t === "true") return true;
  if (t === "0" || t === "f" || t === "false") return false;
  return undefined;
}

/** The `--help` text: usage, every flag, the subcommands and the exit codes. */
export function helpText(): string {
  const lines = [
    "mm — a coding agent for small local models",
    "",
    "Usage:",
    "  mm                      talk with the agent in this terminal (line mode)",
    '  mm -p "PROMPT"          run one turn and print the answer (also: mm -p - , echo … | mm -p)',
    "  mm -tui | mm -acp       window mode | editor mode",
    '  mm --ask NAME "PROMPT"  run agent NAME of mmConfigs once',
    "  mm init | doctor        write a starter agent file | check the server, model and tools",
    "  mm sessions             list the saved conversations of this directory, newest first",
    "  mm trust                show what this folder's agent file runs and trust it (--list, --revoke)",
    "  mm undo                 take back the last turn of the latest session here (--session ID)",
    "",
    "Flags (Go style -flag and GNU style --flag are the same):",
  ];
  for (const s of FLAG_SPECS) {
    const names = s.names.map((n) => `${dashes(n)}${n}`).join(", ");
    const left = `  ${names}${s.arg ? ` ${s.arg}` : ""}`;
    lines.push(`${left.padEnd(26)}${s.help}`);
  }
  lines.push("", ...EXIT_CODES_HELP);
  return lines.join("\n") + "\n";
}

/**
 * Every exit code mm ends with, and why (`mm --help`, README). A signal's code is 128 + its
 * number (lib/frontend/exit.ts); 124 is `--timeout`'s, as `timeout(1)`'s.
 */
export const EXIT_CODES_HELP = [
  "Exit codes: 0 answered; 1 the turn failed; 2 usage or configuration error; 130 interrupted.",
  "In full:",
  "  0    answered (a command: done, every check passed)",
  "  1    the turn failed (server unreachable, model not found, loop detector, watchdog,",
  "       maxTurns), or a command could not do its work (mm doctor: a check failed)",
  "  2    usage or configuration error (a flag, the agent file, an untrusted project, a session)",
  "  124  mm -p --timeout: the whole run took longer (as timeout(1))",
  "  129  SIGHUP: the terminal closed (the turn cancelled and saved first)",
  "  130  interrupted: SIGINT, Ctrl-C in mm -p",
  "  131  SIGQUIT",
  "  141  stdout closed by its reader (mm -p | head -1), as SIGPIPE",
  "  143  SIGTERM (timeout, a CI cancellation)",
];

/** The `--help` texts of the subcommands that take options of their own (`mm trust`'s is its module's). */
export const SUBCOMMAND_HELP: Record<"init" | "doctor" | "sessions", string> = {
  init: `Usage:
  mm init [--provider NAME] [--url URL] [--model NAME]

Writes a commented starter agent file, ./mm.yaml, for the first server it finds (Ollama,
llama.cpp, Docker Model Runner on their usual ports), or the one named.

  --provider NAME         ${PROVIDER_LIST}
  --url URL               the server's base URL (http:// or https://)
  --model NAME            the model (else the server's first)

Exit codes: 0 written; 1 a file was there already or could not be written; 2 a bad flag.
`,
  doctor: `Usage:
  mm doctor [-c FILE] [--model NAME] [--provider NAME] [--url URL] [--trust]

Checks the agent file, the server, the model, tool calling, the LSP and MCP servers and the
sandbox, and says what to fix.

  -c, --config FILE       an agent file over the user's and the project's (else $MM_CONFIG)
  --model NAME            the model, over the agent file's
  --provider NAME         the provider, over the agent file's
  --url URL               the server's base URL, over the agent file's
  --trust                 trust the project's agent file for this run

Exit codes: 0 every check passed; 1 a check failed; 2 a bad flag or agent file.
`,
  sessions: `Usage:
  mm sessions [-c FILE] [--trust]

Lists the saved conversations of this directory, newest first: their ids (for --session ID),
when, their turns and their first prompt.

  -c, --config FILE       an agent file over the user's and the project's (its sessions.dir)
  --trust                 trust the project's agent file for this run

Exit codes: 0 listed; 2 a bad flag or agent file.
`,
};

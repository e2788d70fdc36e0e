/**
 * How a tool call runs (tools.md, "Permissions", "Loop detection"; mm.md §6 hooks): the tool found
 * by its forgiving name, the arguments repaired and coerced, the permission gate, the
 * preToolCall/postToolCall hooks, the tool itself, the loop detector. One path for the calls the
 * model makes in a turn and for a front end's command (`/ask`); the editor's replay describes a
 * stored call with the same rule.
 */

import { dirname, isAbsolute, relative, sep as SEP } from "node:path";
import type { Config, HookEvent } from "../config/config.ts";
import { type Message, NOT_RUN, type ToolCall } from "../history.ts";
import {
  type HookPayload,
  type HookVerdict,
  type InputCheck,
  runHooks,
  withHookContext,
} from "../hooks/run.ts";
import {
  type AskPermission,
  refusalWithReason,
  rejectedText,
  targetText,
  withTargets,
} from "../permissions/prompt.ts";
import {
  alwaysRule,
  askRuleRejectedText,
  type CallSubject,
  decide,
  deniedText,
  hostOf,
  patternKind,
  type Rule,
  type RulePlaces,
  rulesOf,
} from "../permissions/rules.ts";
import { splitCommands } from "../permissions/shell_split.ts";
import { PLAN_MODE_REFUSED, planAllows } from "../permissions/plan.ts";
import type {
  AnyTool,
  Conversation,
  ToolContext,
  ToolKind,
  ToolRedirect,
  ToolResult,
  UnknownToolAnswer,
} from "../tool.ts";
import { redact } from "../secrets.ts";
import { coerceInput, invalidCallText, parseToolArguments, pathFaults } from "../tool_input.ts";
import type { AgentEvent } from "./events.ts";
import { LOOP_DETECTED, LoopDetector } from "./loop_detector.ts";
import { changedSince, changedSinceText, type Preview, previewChange } from "./preview.ts";
import type { Counters } from "./recap.ts";
import {
  abandonedText,
  CANCEL_GRACE,
  crashText,
  hookDeniedText,
  hookInputText,
  unknownToolText,
} from "./texts.ts";
import { matchToolName } from "./tool_name.ts";
import { warningText } from "../presentation.ts";
import type { TurnKeeper } from "../undo/keeper.ts";

/** The conversation as a tool sees it: the history, the calling message, the previous answer. */
export function conversationOf(history: Message[], previousAnswer?: string): Conversation {
  const caller = history.findLast((m) => m.role === "assistant");
  return {
    history,
    callerText: typeof caller?.content === "string" ? caller.content : "",
    previousAnswer,
  };
}

/** The text of the last answer in `history`: an assistant message without tool calls. */
export function lastAnswer(history: readonly Message[]): string | undefined {
  const m = history.findLast((m) => m.role === "assistant" && !m.tool_calls?.length);
  return m && typeof m.content === "string" && m.content.trim() ? m.content : undefined;
}

/** A call ready to run, or the text that refuses it (unknown tool, bad JSON, bad fields). */
export type PreparedCall =
  | { ok: true; tool: AnyTool; input: Record<string, unknown> }
  | { ok: false; tool?: AnyTool; refusal: string };

/**
 * The tool a model named, forgiving case and separators (`Read_File`, `read-file`, `readFile` are
 * `read_file`) when exactly one declared tool reads alike.
 */
export function findTool(tools: readonly AnyTool[], name: string): AnyTool | undefined {
  const match = matchToolName(name.trim(), tools.map((t) => t.name));
  return tools.find((t) => t.name === match);
}

/**
 * The input of `tool` from a model's arguments (already parsed), or the faults that refuse it; a
 * path holding a control character or a line break is one (the one path rule, for every tool).
 */
function coerce(
  tool: AnyTool,
  args: Record<string, unknown>,
): { ok: true; input: Record<string, unknown> } | { ok: false; faults: string[] } {
  const coerced = tool.parse ? tool.parse(args) : coerceInput(tool.parameters, args);
  if (!coerced.ok) return coerced;
  const faults = pathFaults(tool.parameters, coerced.input);
  return faults.length ? { ok: false, faults } : coerced;
}

/**
 * Finds the tool, repairs the arguments and coerces them to the tool's parameters. A name no
 * declared tool has is answered by `unknown` when it claims the name (an MCP server's) — with a
 * text, or with the declared call it stands for, which then runs — else by the core's text.
 */
export function prepareCall(
  tools: readonly AnyTool[],
  call: Pick<ToolCall, "name" | "arguments">,
  unknown?: UnknownToolAnswer,
): PreparedCall {
  let tool = findTool(tools, call.name);
  let redirect: ToolRedirect | undefined;
  if (!tool) {
    const names = tools.map((t) => t.name);
    const answer = unknown?.(call.name.trim(), names);
    if (typeof answer === "object") {
      tool = findTool(tools, answer.tool);
      redirect = answer;
    }
    if (!tool) {
      const refusal = typeof answer === "string" ? answer : unknownToolText(call.name, names);
      return { ok: false, refusal };
    }
  }
  const parsed = parseToolArguments(call.arguments);
  const args = parsed.ok ? (redirect?.arguments(parsed.value) ?? parsed.value) : undefined;
  const coerced = args ? coerce(tool, args) : undefined;
  if (coerced?.ok) return { ok: true, tool, input: coerced.input };
  const faults = parsed.ok ? (coerced as { faults: string[] }).faults : [parsed.reason];
  const sent = call.arguments.trim() || "{}";
  return { ok: false, tool, refusal: invalidCallText(tool.name, faults, sent, tool.parameters) };
}

/** How a call shows in the front ends: the tool's name, kind, summary and input. */
export interface CallDescription {
  name: string;
  kind: ToolKind;
  summary: string;
  input: unknown;
}

/**
 * How a call of `name` with `args` shows, as when it ran (the editor's replay): a call the model
 * wrote `readFile` is `read_file`; a call that could not run shows its raw arguments, kind `other`.
 */
export function describeCall(
  tools: readonly AnyTool[],
  name: string,
  args: string,
  conversation?: Conversation,
): CallDescription {
  const call = { name, arguments: args };
  return describePrepared(prepareCall(tools, call), call, conversation);
}

/** How a prepared call shows. */
function describePrepared(
  prepared: PreparedCall,
  call: Pick<ToolCall, "name" | "arguments">,
  conversation?: Conversation,
): CallDescription {
  if (!prepared.ok) {
    const name = prepared.tool?.name ?? call.name;
    return { name, kind: "other", summary: call.arguments, input: call.arguments };
  }
  const { tool, input } = prepared;
  const kind = typeof tool.kind === "function" ? tool.kind(input) : tool.kind;
  return { name: tool.name, kind, summary: tool.summary(input, conversation), input };
}

/** Where a path of a call really leads, when that is elsewhere than it reads. */
export interface CallTarget {
  /** The absolute path reached, every symbolic link resolved. */
  real: string;
  /** Out of the project (the working directory, its links resolved too). */
  outside: boolean;
}

/**
 * The describe step of a permission prompt: where each path of the call (its parameters marked
 * `path`) leads when it is reached through a symbolic link or lies outside the project — what the
 * prompt names after the summary, so that a link's name never hides its target.
 */
export async function callTargets(
  tool: AnyTool,
  input: Record<string, unknown>,
  ctx: Pick<ToolContext, "cwd" | "fs">,
): Promise<CallTarget[]> {
  const { fs, cwd } = ctx;
  const real = (path: string) =>
    fs.realPath ? fs.realPath(path) : Promise.resolve(fs.resolve(path));
  const targets: CallTarget[] = [];
  let project: string | undefined;
  for (const [name, p] of Object.entries(tool.parameters)) {
    const value = input[name];
    if (!p.path || typeof value !== "string" || !value.trim()) continue;
    project ??= await real(cwd);
    const reached = await real(value);
    const rel = relative(project, reached);
    const outside = rel === ".." || rel.startsWith(`..${SEP}`) || isAbsolute(rel);
    if (outside || rel !== relative(cwd, fs.resolve(value))) {
      targets.push({ real: reached, outside });
    }
  }
  return targets;
}

/**
 * What of a call the permission rules look at (lib/permissions/rules.ts): a bash line's simple
 * commands, the paths of the parameters marked `path` (as resolved, and where they really lead),
 * a fetch's host, the MCP tool it runs.
 */
export async function callSubject(
  tool: AnyTool,
  input: Record<string, unknown>,
  ctx: Pick<ToolContext, "fs">,
): Promise<CallSubject> {
  const subject: CallSubject = { tool: tool.name };
  const mcp = tool.mcpName?.(input);
  if (mcp !== undefined) subject.mcp = mcp;
  const kind = patternKind(tool.name);
  if (kind === "command" && typeof input.command === "string") {
    subject.commands = splitCommands(input.command);
  } else if (kind === "host" && typeof input.url === "string") {
    subject.host = hostOf(input.url);
  } else if (kind === "path") {
    const { fs } = ctx;
    subject.paths = [];
    for (const [name, p] of Object.entries(tool.parameters)) {
      const value = input[name];
      if (!p.path || typeof value !== "string" || !value.trim()) continue;
      const given = fs.resolve(value);
      subject.paths.push({ given, real: fs.realPath ? await fs.realPath(value) : given });
    }
  }
  return subject;
}

/** The home directory of `~/` in path rules, when mm may read its environment. */
function homeDirectory(): string | undefined {
  try {
    return Deno.env.get("HOME") || Deno.env.get("USERPROFILE") || undefined;
  } catch {
    return undefined;
  }
}

/** What a hook's new input that the display line does not show adds to it. */
export const INPUT_CHANGED = "(its input changed by the hook)";

/** A call's end: the output the model reads and, when the call ends the turn, why. */
export interface CallEnd {
  output: string;
  /** The error that ends the turn; `reason` says whose. */
  stop?: string;
  reason?: "loop" | "tool";
}

/** How a command of a front end ended: refused by the gate (its text), or run. */
export type CommandOutcome =
  | { kind: "refused"; text: string }
  | { kind: "ran"; result: ToolResult };

/** What the dispatcher needs from the conversation it serves. */
export interface DispatchOptions {
  config: Config;
  tools: AnyTool[];
  /** The answer to a name no declared tool has, when the tools that claim it say one. */
  unknownTool?: UnknownToolAnswer;
  askPermission: AskPermission;
  emit(event: AgentEvent): void;
  /** The tools' context for one call (the front end's part of it). */
  context(signal: AbortSignal): ToolContext;
  /** The conversation as a tool sees it now. */
  conversation(): Conversation;
  /** The session file's id when sessions are on: the hooks' `session` field. */
  sessionId?: () => string | undefined;
  /** Records a failure for the session file. */
  recordError(where: "tool" | "hook", message: string): void;
  /** Keeps what a call is about to change, for undo (lib/undo/); absent: nothing is kept. */
  keeper?: TurnKeeper;
  /** Whether plan mode is on now: only calls that read run (lib/permissions/plan.ts). */
  plan?: () => boolean;
}

/** Runs the tool calls of a conversation; remembers the rules an "always" added for the session. */
export class Dispatcher {
  /** The loop detector: `/new` makes a new conversation, `/compact` keeps it. */
  readonly loop = new LoopDetector();
  #opts: DispatchOptions;
  /** The agent file's rules, then the session's (an "always" answered). */
  #rules: Rule[];
  /** The ask rules an "always" answered: passed over for the session. */
  #lifted = new Set<string>();
  #home = homeDirectory();

  /** A dispatcher for the calls of one conversation. */
  constructor(opts: DispatchOptions) {
    this.#opts = opts;
    this.#rules = rulesOf(opts.config.permissions);
  }

  /** The rules an "always" added in this conversation, as written. */
  sessionRules(): string[] {
    return [
      ...this.#lifted,
      ...this.#rules.filter((r) => r.session).map((r) => r.text),
    ];
  }

  /** Runs one call of the model: its events, the gate, hooks, the tool, the loop detector. Never throws. */
  async run(call: ToolCall, signal: AbortSignal, counters: Counters): Promise<CallEnd> {
    const { tools, emit } = this.#opts;
    const prepared = prepareCall(tools, call, this.#opts.unknownTool);
    const { tool } = prepared;
    const { name, kind, summary, input } = describePrepared(
      prepared,
      call,
      this.#opts.conversation(),
    );
    // The gate decides before the call is shown: a call that will ask says so (line mode's 🔐
    // line then stands for its call line).
    const decided = prepared.ok
      ? await this.#decide(prepared.tool, prepared.input, signal)
      : undefined;
    emit({
      type: "tool_call",
      id: call.id,
      name,
      kind,
      emoji: tool?.emoji ?? "❔",
      summary,
      input,
      ...(decided && "ask" in decided ? { asks: true as const } : {}),
    });
    let result: ToolResult;
    if (!prepared.ok) result = { output: prepared.refusal, failed: true };
    else {
      const gate = decided && "ask" in decided ? await this.#ask(decided.ask) : decided;
      result = gate && "refused" in gate
        ? { output: gate.refused, failed: true }
        : gate?.answered ??
          await this.#runWithHooks(prepared.tool, prepared.input, signal, call.id, (input) => {
            const now = prepared.tool.summary(input, this.#opts.conversation());
            // A change the display line does not show (an edit's text) is said to be one.
            emit({
              type: "tool_input",
              id: call.id,
              name,
              summary: now === summary ? `${now} ${INPUT_CHANGED}` : now,
              input,
            });
          });
    }
    // The one place every tool result enters the history: mm's secrets never reach the model.
    result = redactedResult(result);
    if (tool?.counter) counters[tool.counter]++;
    const verdict = this.loop.record(
      name,
      prepared.ok ? prepared.input : call.arguments,
      result.output,
    );
    if (verdict === "stop") {
      const error = this.loop.stoppedText(name, result.failed ?? false);
      emit({ type: "tool_result", id: call.id, name, output: error, failed: true });
      return { output: error, stop: error, reason: "loop" };
    }
    let output = result.output;
    if (verdict === "warn") {
      output += (output.endsWith("\n") || !output ? "" : "\n") + LOOP_DETECTED;
    }
    emit({
      type: "tool_result",
      id: call.id,
      name,
      output,
      failed: result.failed ?? false,
      diff: result.diff,
      ...(tool?.preview === false ? { preview: false } : {}),
      ...(result.display !== undefined ? { display: result.display } : {}),
    });
    return result.stop === undefined ? { output } : { output, stop: result.stop, reason: "tool" };
  }

  /**
   * Runs tool `name` with `input` as a front end's command (line mode's `/ask`): the same gate,
   * hooks and context as a call of the model, without its events or the loop detector (the front
   * end draws the command its own way). The steps of an asked agent are emitted as `nested`
   * events of call `id`. `announce` hears, before anything is asked, whether the gate will ask.
   */
  async command(
    name: string,
    input: Record<string, unknown>,
    signal: AbortSignal,
    id: string,
    announce?: (asks: boolean) => void,
  ): Promise<CommandOutcome> {
    const prepared = prepareCall(
      this.#opts.tools,
      { name, arguments: JSON.stringify(input) },
      this.#opts.unknownTool,
    );
    if (!prepared.ok) {
      announce?.(false);
      return { kind: "refused", text: prepared.refusal };
    }
    const decided = await this.#decide(prepared.tool, prepared.input, signal);
    announce?.(decided !== undefined && "ask" in decided);
    const gate = decided && "ask" in decided ? await this.#ask(decided.ask) : decided;
    if (gate && "refused" in gate) return { kind: "refused", text: gate.refused };
    if (gate) return { kind: "ran", result: redactedResult(gate.answered) };
    return {
      kind: "ran",
      result: redactedResult(await this.#runWithHooks(prepared.tool, prepared.input, signal, id)),
    };
  }

  /**
   * Runs the hooks of an event; their failures are recorded and shown, never fatal. The turn's
   * `signal` kills a running hook (the verdict is then `cancelled`).
   */
  async hooks(
    event: HookEvent,
    payload: HookPayload,
    signal: AbortSignal,
    check?: InputCheck,
  ): Promise<HookVerdict> {
    const hooks = this.#opts.config.hooks[event];
    if (!hooks?.length) return { context: [], failures: [] };
    const session = this.#opts.sessionId?.();
    const verdict = await runHooks(
      hooks,
      session ? { ...payload, session } : payload,
      this.#opts.config.bashTimeout,
      signal,
      check,
    );
    for (const f of verdict.failures) this.#hookFailure(f);
    return verdict;
  }

  /** A hook's failure: recorded for the session file and shown as a warning. */
  #hookFailure(message: string): void {
    this.#opts.recordError("hook", message);
    this.#opts.emit({ type: "warning", message: warningText(message) });
  }

  /** Runs a tool between its preToolCall and postToolCall hooks; `changed` hears of a new input. */
  async #runWithHooks(
    tool: AnyTool,
    input: Record<string, unknown>,
    signal: AbortSignal,
    callId: string,
    changed?: (input: Record<string, unknown>) => void,
  ): Promise<ToolResult> {
    const sessionId = this.#opts.sessionId?.();
    const ctx: ToolContext = {
      askPermission: this.#opts.askPermission,
      ...this.#opts.context(signal),
      conversation: this.#opts.conversation(),
      ...(sessionId ? { sessionId } : {}),
      emit: (event) => this.#opts.emit({ type: "nested", call: callId, event }),
      hookFailure: (message) => this.#hookFailure(message),
    };
    const base = { tool: tool.name, cwd: ctx.cwd };
    // Each hook's new input is checked as the model's would be, so the next hook sees what runs.
    const check: InputCheck = (given) => {
      const coerced = coerce(tool, given);
      return coerced.ok
        ? { ok: true, input: coerced.input }
        : { ok: false, failure: hookInputText(tool.name, coerced.faults) };
    };
    const payload = { event: "preToolCall" as const, input, ...base };
    const pre = await this.hooks("preToolCall", payload, signal, check);
    // A turn cancelled while its hook ran never runs the tool the hook guards.
    if (pre.cancelled || signal.aborted) return { output: NOT_RUN, failed: true };
    if (pre.denied !== undefined) {
      return { output: hookDeniedText(tool.name, pre.denied), failed: true };
    }
    if (pre.input && JSON.stringify(pre.input) !== JSON.stringify(input)) {
      input = pre.input;
      changed?.(input);
    }
    // Undo: what the call is about to change is kept first (its files, or the work tree).
    const keeper = this.#opts.keeper;
    if (keeper) {
      await keeper.beforeCall(tool, input);
      ctx.fs = keeper.files(ctx.fs);
    }
    const result = await runTool(tool, input, ctx, (m) => this.#opts.recordError("tool", m));
    const post = await this.hooks("postToolCall", {
      event: "postToolCall",
      input,
      output: result.output,
      ...base,
    }, signal);
    const output = withHookContext(post.replace ?? result.output, post.context);
    return output === result.output ? result : { ...result, output };
  }

  /**
   * The permission gate's decision: undefined when the call may run; else why it may not (the
   * refusal the model reads), its answer when its preview shows it writes nothing (a failing edit
   * is not asked about), or the question to ask ({@linkcode Dispatcher.#ask}). The rules decide
   * first (deny > ask > allow), then the mode (`yolo`, the tool's `asks`, a read out of the
   * project). A call that changes a file shows the dialog its diff. Plan mode decides before the
   * rules: a call that does not only read is refused, unasked.
   */
  async #decide(
    tool: AnyTool,
    input: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<GateEnd | { ask: Question } | undefined> {
    if (this.#opts.plan?.() && !planAllows(planCall(tool, input))) {
      return { refused: PLAN_MODE_REFUSED };
    }
    const conversation = this.#opts.conversation();
    const yolo = this.#opts.config.yolo;
    const asks = typeof tool.asks === "function" ? tool.asks(input, conversation) : tool.asks;
    if (!this.#rules.length && (yolo || (!asks && !tool.asksOutside))) return undefined;
    const ctx = { ...this.#opts.context(signal), conversation };
    const places: RulePlaces = { cwd: ctx.cwd, home: this.#home };
    let subject = this.#rules.length ? await callSubject(tool, input, ctx) : undefined;
    const decision = subject && decide(this.#rules, subject, places, this.#lifted);
    if (decision?.kind === "deny") return { refused: deniedText(tool.name, decision.rule) };
    if (decision?.kind === "allow") return undefined;
    const targets = await callTargets(tool, input, ctx);
    const outside = tool.asksOutside ? targets.filter((t) => t.outside) : [];
    const rule = decision?.kind === "ask" ? decision.rule : undefined;
    if (!rule && (yolo || (!asks && !outside.length))) return undefined;
    const preview = await previewChange(tool, input, ctx);
    // A file change that would fail or change nothing writes nothing: its answer, nothing asked.
    if (preview.kind === "nothing") return { answered: preview.result };
    subject ??= await callSubject(tool, input, ctx);
    const always = alwaysRule(subject, { rule, outside: outside.map((t) => dirname(t.real)) });
    return {
      ask: {
        tool,
        input,
        fs: ctx.fs,
        cwd: ctx.cwd,
        summary: withTargets(
          tool.summary(input, conversation),
          targets.map((t) => targetText(t.real, t.outside)),
        ),
        change: preview.kind === "change" ? preview : undefined,
        rule,
        always,
      },
    };
  }

  /** Asks the question the gate decided on: undefined when the call may run, else its end. */
  async #ask(q: Question): Promise<GateEnd | undefined> {
    const { tool, rule, always } = q;
    const answer = await this.#opts.askPermission(
      tool.name,
      q.summary,
      q.input,
      undefined,
      q.change?.diff,
      always.text,
    );
    if (answer.kind === "allowAlways") {
      if (rule) this.#lifted.add(rule.text);
      else this.#rules.push(always);
    }
    if (answer.kind !== "reject") {
      // What was shown is what is applied: a file changed while the user read its diff is left alone.
      const changed = q.change ? await changedSince(q.fs, q.change.seen) : undefined;
      if (changed === undefined) return undefined;
      return {
        answered: { output: changedSinceText(relative(q.cwd, changed) || changed), failed: true },
      };
    }
    if (answer.unasked && rule) return { refused: askRuleRejectedText(tool.name, rule) };
    return {
      refused: answer.reason
        ? refusalWithReason(tool.name, answer.reason)
        : rejectedText(tool.name),
    };
  }
}

/** How the gate ends a call it does not let run: refused, or answered without running. */
type GateEnd = { refused: string } | { answered: ToolResult };

/** A permission question the gate decided to ask: what the prompt shows, and what an answer does. */
interface Question {
  tool: AnyTool;
  input: Record<string, unknown>;
  fs: ToolContext["fs"];
  cwd: string;
  /** The call's summary with where its paths lead. */
  summary: string;
  /** The file change the prompt shows, and what was read to make it. */
  change?: Extract<Preview, { kind: "change" }>;
  /** The ask rule that asks, if one does. */
  rule?: Rule;
  /** The rule an "always" adds for the session. */
  always: Rule;
}

/** A call as plan mode looks at it: its tool, its kind for this input, the MCP tool it runs. */
function planCall(tool: AnyTool, input: Record<string, unknown>) {
  const kind = typeof tool.kind === "function" ? tool.kind(input) : tool.kind;
  const mcp = tool.mcpName?.(input);
  // An MCP tool is a read exactly when its server declares `readOnlyHint: true` (tools/mcp/).
  return {
    tool: tool.name,
    kind,
    input,
    ...(mcp !== undefined ? { mcp, mcpReadOnly: kind === "read" } : {}),
  };
}

/**
 * `result` with its output redacted of mm's secrets (lib/secrets.ts: the key, a URL's password,
 * an MCP server's tokens): what a bash command, a declared tool, an MCP server, a fetched page or
 * a hook says never hands the model a secret mm holds, nor the session file.
 */
export function redactedResult(result: ToolResult): ToolResult {
  const output = redact(result.output);
  return output === result.output ? result : { ...result, output };
}

/**
 * Runs a tool; a throw is a bug in the tool, told to the model in one line. Every call is
 * cancellable: a tool still running {@linkcode CANCEL_GRACE} ms after its turn's cancellation is
 * left behind (its promise's end ignored) and the call ends with {@linkcode abandonedText}.
 */
async function runTool(
  tool: AnyTool,
  input: Record<string, unknown>,
  ctx: ToolContext,
  onCrash: (message: string) => void,
): Promise<ToolResult> {
  const ran = (async () => {
    try {
      return await tool.run(input, ctx);
    } catch (e) {
      const output = crashText(tool.name, (e as Error)?.message ?? String(e));
      onCrash(output);
      return { output, failed: true };
    }
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const abandoned = new Promise<ToolResult>((resolve) => {
    onAbort = () => {
      timer = setTimeout(
        () => resolve({ output: abandonedText(tool.name), failed: true }),
        CANCEL_GRACE,
      );
    };
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([ran, abandoned]);
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort!);
  }
}

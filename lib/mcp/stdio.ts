/**
 * A stdio MCP server: the process, and the transport the SDK's client speaks through (one JSON
 * message per line on stdin and stdout).
 *
 * mm's own rather than the SDK's, for the lifecycle: the server runs in its own session and
 * process group (lib/exec/spawn.ts, the one starter, as for commands), so a Ctrl-C typed in mm's
 * terminal never reaches it, and closing kills the whole group — `npx` and the server it started,
 * and whatever that one started. stdin, stdout and stderr are pipes: stderr is never drawn over
 * mm's window nor mixed into the editor's protocol; its last lines are kept for error messages.
 * A line on stdout that is not JSON (a server logging to the wrong stream) is kept with them and
 * otherwise ignored. When mm dies without closing (SIGKILL), the server reads the end of its stdin.
 */

import { startProblem } from "../exec/program.ts";
import { type Spawned, spawnProcess } from "../exec/spawn.ts";
import { within } from "../wait.ts";
import { MAX_MCP_MESSAGE } from "../bounded/limits.ts";
import { readLines, type SkippedLine } from "../bounded/lines.ts";
import { skippedId, tooLargeReply, tooLargeText } from "./oversize.ts";

/** Lines of stderr kept for error messages. */
export const KEPT_LINES = 20;

/** Characters kept of one stderr line. */
const LINE_MAX = 300;

/** Milliseconds a server has to exit after its stdin closed, and again after SIGTERM. */
export const CLOSE_GRACE = 500;

/** How a stdio server is started. */
export interface StdioOptions {
  /** The program and its arguments. */
  argv: string[];
  cwd: string;
  /** The whole environment of the server (lib/mcp/env.ts). */
  env: Record<string, string>;
}

/** Stack frames kept of one run of them (`    at f (file.js:1:2)`): the rest say little. */
export const KEPT_FRAMES = 3;

/** A line of a stack trace: `    at f (/srv/index.js:1:21)`. */
const FRAME = /^\s+at\s/;

/** A runtime's banner after its crash report, which names no error: `Node.js v22.11.0`. */
const BANNER = /^(Node\.js|Deno|Bun) v?\d+(\.\d+)*\s*$/;

/** A line that names an error: `RangeError: …`, `error: Uncaught …`, `Traceback …`. */
const ERROR_LINE = /\b\w*(Error|Exception|Panic)\b|^\s*(error|fatal|panic)\b/i;

/**
 * The last lines a stream wrote, each cut to a few hundred characters; of a run of stack frames,
 * only the first {@linkcode KEPT_FRAMES}.
 */
export class LastLines {
  readonly lines: string[] = [];
  #partial = "";
  #frames = 0;

  /** Adds a chunk of text. */
  push(text: string): void {
    const parts = (this.#partial + text).split(/\r?\n/);
    this.#partial = parts.pop() ?? "";
    for (const line of parts) this.add(line);
    if (this.#partial.length > 4 * LINE_MAX) {
      this.add(this.#partial);
      this.#partial = "";
    }
  }

  /** Adds one whole line. */
  add(line: string): void {
    const trimmed = line.trimEnd();
    if (!trimmed.trim()) return;
    this.#frames = FRAME.test(trimmed) ? this.#frames + 1 : 0;
    if (this.#frames > KEPT_FRAMES) return;
    this.lines.push(trimmed.length > LINE_MAX ? `${trimmed.slice(0, LINE_MAX)}…` : trimmed);
    if (this.lines.length > KEPT_LINES) this.lines.shift();
  }

  /**
   * What the stream last said that means something, on one line: the error of the last stack
   * trace and its first frame (`RangeError: Invalid array length, at f (/srv/index.js:1:21)`),
   * else the last line; a runtime's banner (`Node.js v22.11.0`) is passed over.
   */
  summary(): string | undefined {
    const lines = [...this.lines];
    if (this.#partial.trim()) lines.push(this.#partial.trim().slice(0, LINE_MAX));
    while (lines.length && BANNER.test(lines.at(-1)!.trim())) lines.pop();
    const lastFrame = lines.findLastIndex((l) => FRAME.test(l));
    if (lastFrame < 0) return lines.at(-1)?.trim();
    let first = lastFrame;
    while (first > 0 && FRAME.test(lines[first - 1])) first--;
    const after = lines.slice(lastFrame + 1).map((l) => l.trim());
    // Lines after the trace that are not an object's dump (`  code: 'X'`, `}`) say more.
    if (after.some((l) => !/^[}\]]|^[\w$]+: /.test(l) && !l.endsWith("{"))) return after.at(-1);
    const before = lines.slice(0, first);
    const at = before.findLastIndex((l) => ERROR_LINE.test(l));
    const error = (at >= 0 ? before[at] : before.at(-1))?.trim();
    const frame = lines[first].trim().replace(/\s*\{$/, "");
    return error ? `${error}, ${frame}` : frame;
  }

  /** The last line with something on it, the unfinished one included. */
  last(): string | undefined {
    if (this.#partial.trim()) return this.#partial.trim().slice(0, LINE_MAX);
    return this.lines.at(-1)?.trim();
  }
}

/** How the process ended. */
export interface ProcessEnd {
  code: number;
  signal?: string;
}

/** The transport of one stdio server (the SDK's `Transport` shape). */
export class StdioTransport {
  /** Set by the SDK's client. */
  onmessage?: (message: unknown) => void;
  /** Set by the SDK's client: called once, when the process is gone. */
  onclose?: () => void;
  /** Set by the SDK's client. */
  onerror?: (error: Error) => void;
  /** The last lines of stderr (and stray stdout). */
  readonly stderr = new LastLines();
  /** Settles when the process has exited and been reaped. */
  readonly ended: Promise<ProcessEnd>;
  #opts: StdioOptions;
  #process?: Spawned;
  #writer?: WritableStreamDefaultWriter<Uint8Array>;
  #end?: ProcessEnd;
  #setEnd!: (end: ProcessEnd) => void;
  #closing?: Promise<void>;
  #readers: Promise<void>[] = [];

  /** A transport for the server `opts` starts; nothing runs before `start`. */
  constructor(opts: StdioOptions) {
    this.#opts = opts;
    this.ended = new Promise((resolve) => this.#setEnd = resolve);
  }

  /** The process id (its group's id too), once started. */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  /** How the process ended, once it has. */
  get end(): ProcessEnd | undefined {
    return this.#end;
  }

  /** Spawns the server; throws an Error saying why it cannot be started. */
  async start(): Promise<void> {
    const { argv, cwd, env } = this.#opts;
    const problem = await startProblem(argv, cwd);
    if (problem !== undefined) throw new Error(`${argv[0]} cannot be started: ${problem}`);
    try {
      this.#process = await spawnProcess({
        argv,
        cwd,
        wholeEnv: env,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
        grace: CLOSE_GRACE,
      });
    } catch (e) {
      throw new Error(`${argv[0]} cannot be started: ${(e as Error).message}`);
    }
    const child = this.#process.child;
    this.#writer = child.stdin.getWriter();
    this.#readers.push(this.#readStdout(child.stdout), this.#readStderr(child.stderr));
    child.status.then(async (status) => {
      this.#end = { code: status.code, ...(status.signal ? { signal: status.signal } : {}) };
      // The output already written is read before the client hears of the close.
      await Promise.race([Promise.all(this.#readers), new Promise((r) => setTimeout(r, 200))]);
      this.#setEnd(this.#end);
      this.onclose?.();
    });
  }

  /** Sends one message. */
  async send(message: unknown): Promise<void> {
    if (!this.#writer || this.#end) throw new Error("the server is not running");
    await this.#writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
  }

  /**
   * Stops the server: stdin closed, then SIGTERM and SIGKILL to its group when it lingers, then
   * SIGKILL to what is left of the group. Resolves once the process is reaped.
   */
  close(): Promise<void> {
    this.#closing ??= this.#stop();
    return this.#closing;
  }

  async #stop(): Promise<void> {
    const process = this.#process;
    if (!process) return;
    if (!this.#end) {
      // What it started is noted while it lives: once it exits, a process that left its group
      // (`setsid`) no longer leads back to it.
      process.record();
      await this.#writer?.close().catch(() => {});
      // SIGTERM to the group, SIGKILL after CLOSE_GRACE more.
      if (!await within(process.status, CLOSE_GRACE)) process.stop();
    }
    await process.status;
    process.kill("SIGKILL"); // what the server started and left behind
    process.end(); // its pid may belong to another process from now on
    await this.ended;
    // A process that escaped every kill (no /proc) may hold the pipes open: not waited for long.
    await within(Promise.all(this.#readers), CLOSE_GRACE);
  }

  /**
   * One JSON message a line, read in linear time; a line longer than {@linkcode MAX_MCP_MESSAGE}
   * is passed over, and the request it answered gets an error in its place (lib/mcp/oversize.ts);
   * one that names no request is only kept with stderr's lines.
   */
  async #readStdout(stream: ReadableStream<Uint8Array>): Promise<void> {
    const skip = (line: SkippedLine) => {
      const id = skippedId(line);
      if (id !== undefined) return this.#message(tooLargeReply(id));
      this.stderr.add(
        `mm: passed over a message of ${line.bytes} bytes that answers no call: ${tooLargeText()}`,
      );
    };
    try {
      for await (const line of readLines(stream, { max: MAX_MCP_MESSAGE, skip })) this.#line(line);
    } catch {
      // The pipe broke with the process: its exit is told by `status`.
    }
  }

  #line(line: string): void {
    if (!line.trim()) return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.stderr.add(line);
      return;
    }
    this.#message(message);
  }

  #message(message: unknown): void {
    try {
      this.onmessage?.(message);
    } catch (e) {
      this.onerror?.(e as Error);
    }
  }

  async #readStderr(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of stream) this.stderr.push(decoder.decode(chunk, { stream: true }));
    } catch {
      // The pipe broke with the process.
    }
  }
}

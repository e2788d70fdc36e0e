/** A fake ToolContext for unit tests: an in-memory file system and an Exec that plays a script. */

import { posix } from "node:path";
import { type Config, defaultConfig } from "../../lib/config/config.ts";
import type {
  Exec,
  ExecRequest,
  ExecResult,
  FileInfo,
  Files,
  Http,
  ToolContext,
} from "../../lib/tool.ts";

/** Files kept in a Map by absolute path; directories are the explicit ones plus every file's parents. */
export class MemoryFiles implements Files {
  /** File contents by absolute path. */
  readonly files = new Map<string, Uint8Array>();
  /** Directories that exist even with no file inside. */
  readonly dirs = new Set<string>();
  /** Errors thrown by any access to an absolute path (`PermissionDenied`, ...). */
  readonly failures = new Map<string, Error>();
  /** Absolute paths passed to writeAtomic, in order. */
  readonly writes: string[] = [];

  /** A file system rooted at `cwd`, holding `initial` (relative or absolute paths). */
  constructor(readonly cwd: string, initial: Record<string, string | Uint8Array> = {}) {
    for (const [path, content] of Object.entries(initial)) this.put(path, content);
  }

  /** Adds or replaces a file without recording a write. */
  put(path: string, content: string | Uint8Array): void {
    const data = typeof content === "string" ? new TextEncoder().encode(content) : content;
    this.files.set(this.resolve(path), data);
  }

  /** The file's content as text, or undefined. */
  text(path: string): string | undefined {
    const data = this.files.get(this.resolve(path));
    return data === undefined ? undefined : new TextDecoder().decode(data);
  }

  /** The absolute path of `path`, resolved against the working directory. */
  resolve(path: string): string {
    return posix.resolve(this.cwd, path);
  }

  /** Whether `abs` is a directory. */
  isDirectory(abs: string): boolean {
    if (abs === "/" || this.dirs.has(abs) || abs === this.cwd) return true;
    const prefix = `${abs}/`;
    for (const key of [...this.files.keys(), ...this.dirs]) if (key.startsWith(prefix)) return true;
    return false;
  }

  /** Throws the failure registered for `abs`, if any. */
  private check(abs: string): void {
    const failure = this.failures.get(abs);
    if (failure) throw failure;
  }

  /** The file's metadata, or undefined when nothing is there. */
  stat(path: string): Promise<FileInfo | undefined> {
    const abs = this.resolve(path);
    this.check(abs);
    const data = this.files.get(abs);
    if (data) return Promise.resolve({ isFile: true, isDirectory: false, size: data.length });
    if (this.isDirectory(abs)) {
      return Promise.resolve({ isFile: false, isDirectory: true, size: 4096 });
    }
    return Promise.resolve(undefined);
  }

  /** The file's bytes, or undefined when it does not exist. */
  read(path: string): Promise<Uint8Array | undefined> {
    const abs = this.resolve(path);
    this.check(abs);
    if (this.isDirectory(abs)) {
      return Promise.reject(new Deno.errors.IsADirectory(`Is a directory: '${abs}'`));
    }
    return Promise.resolve(this.files.get(abs)?.slice());
  }

  /** The size of the chunks `readChunks` yields (small in a test that crosses their edges). */
  chunkSize = 1 << 20;

  /** The file's bytes in chunks of `chunkSize`; a missing file throws NotFound, like the real one. */
  async *readChunks(path: string): AsyncIterable<Uint8Array> {
    const abs = this.resolve(path);
    this.check(abs);
    const data = this.files.get(abs);
    if (data === undefined) throw new Deno.errors.NotFound(`No such file: '${abs}'`);
    for (let at = 0; at < data.length; at += this.chunkSize) {
      await Promise.resolve();
      yield data.slice(at, at + this.chunkSize);
    }
  }

  /** Stores the bytes, like the real one: refuses a directory, or a file as a parent. */
  writeAtomic(path: string, data: Uint8Array): Promise<void> {
    const abs = this.resolve(path);
    try {
      this.check(abs);
      if (this.isDirectory(abs)) throw new Deno.errors.IsADirectory(`Is a directory: '${abs}'`);
      for (let dir = posix.dirname(abs); dir !== "/"; dir = posix.dirname(dir)) {
        if (this.files.has(dir)) throw new Deno.errors.NotADirectory(`Not a directory: '${dir}'`);
      }
    } catch (err) {
      return Promise.reject(err);
    }
    this.files.set(abs, data.slice());
    this.writes.push(abs);
    return Promise.resolve();
  }
}

/** One step of a scripted Exec: the result to return, or a function of the request making it. */
export type Script =
  | Partial<ExecResult>
  | ((request: ExecRequest) => Partial<ExecResult> | Promise<Partial<ExecResult>>);

/** An Exec that records each request and answers with the next script (a clean exit when none). */
export class ScriptedExec implements Exec {
  /** Every request received, in order. */
  readonly requests: ExecRequest[] = [];

  /** An Exec answering with `scripts`, one per call. */
  constructor(readonly scripts: Script[] = []) {}

  /** Records the request and plays the next script. */
  async run(request: ExecRequest): Promise<ExecResult> {
    this.requests.push(request);
    const script = this.scripts.shift() ?? {};
    const result = typeof script === "function" ? await script(request) : script;
    return { output: "", code: 0, timedOut: false, cancelled: false, ...result };
  }
}

/** What a test may set; everything else is a default. */
export interface FakeContextOptions {
  cwd?: string;
  /** Merged over defaultConfig(). */
  config?: Partial<Config>;
  /** Initial files, by path relative to `cwd` or absolute. */
  files?: Record<string, string | Uint8Array>;
  /** A ready file system, instead of one built from `files`. */
  fs?: MemoryFiles;
  /** The Exec's scripts, or a ready ScriptedExec. */
  exec?: Script[] | ScriptedExec;
  /** HTTP for the tools; by default every request fails, as if offline. */
  http?: Http;
  signal?: AbortSignal;
}

/** A ToolContext whose fs and exec are the fakes above, so a test can inspect them. */
export interface FakeContext extends ToolContext {
  fs: MemoryFiles;
  exec: ScriptedExec;
}

/** The working directory of a fake context unless a test sets one. */
export const FAKE_CWD = "/work/project";

/** Builds a fake ToolContext: in-memory files under `/work/project`, a scripted Exec. */
export function fakeContext(options: FakeContextOptions = {}): FakeContext {
  const cwd = options.cwd ?? FAKE_CWD;
  const exec = options.exec instanceof ScriptedExec
    ? options.exec
    : new ScriptedExec(options.exec ?? []);
  return {
    cwd,
    config: { ...defaultConfig(), ...options.config },
    fs: options.fs ?? new MemoryFiles(cwd, options.files),
    exec,
    http: options.http ?? {
      fetch: () => Promise.reject(new TypeError("fake context: no network")),
    },
    signal: options.signal ?? new AbortController().signal,
  };
}

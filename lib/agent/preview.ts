/**
 * What a file-changing call would change, for its permission dialog: the tool run against the
 * call's context with its writes kept back (tools.md: "the change travels as a diff").
 */

import { dirname } from "node:path";
import type { AnyTool, FileDiff, FileInfo, Files, ToolContext, ToolResult } from "../tool.ts";

/**
 * `files` with every write kept back: reads see the files as they are, and a write fails as the
 * real one would where a file stands in the way of its directories (`a.txt/x`).
 */
export function withoutWrites(files: Files): Files {
  return {
    resolve: (path) => files.resolve(path),
    stat: (path) => files.stat(path),
    read: (path, limit) => files.read(path, limit),
    ...(files.realPath ? { realPath: (path: string) => files.realPath!(path) } : {}),
    writeAtomic: async (path) => {
      for (let dir = dirname(files.resolve(path)); dir !== dirname(dir); dir = dirname(dir)) {
        const info = await files.stat(dir);
        if (info === undefined) continue;
        if (!info.isDirectory) {
          throw Object.assign(new Error("not a directory"), { code: "ENOTDIR" });
        }
        return;
      }
    },
  };
}

/**
 * What a preview saw of the files it read: by absolute path, what `stat` said (`stat:` keys) and
 * the bytes `read` gave — compared again before the allowed call runs.
 */
export type Seen = Map<string, string | Uint8Array | undefined>;

/** What the model reads when a file changed between its preview and the user's answer. */
export function changedSinceText(path: string): string {
  return `${path} changed after its change was shown for approval — nothing was written; read it again and redo the change`;
}

/**
 * `files` with every write kept back (see {@linkcode withoutWrites}), writing into `seen` what
 * each `stat` and `read` found.
 */
function watched(files: Files, seen: Seen): Files {
  const kept = withoutWrites(files);
  return {
    ...kept,
    stat: async (path) => {
      const info = await files.stat(path);
      seen.set(`stat:${files.resolve(path)}`, statKey(info));
      return info;
    },
    read: async (path, limit) => {
      const bytes = await files.read(path, limit);
      if (!seen.has(files.resolve(path))) seen.set(files.resolve(path), bytes);
      return bytes;
    },
  };
}

/** What a stat said, as compared: nothing there, or the kind and size of what is. */
function statKey(info: FileInfo | undefined): string {
  return info === undefined ? "missing" : `${info.isDirectory ? "dir" : "file"}:${info.size}`;
}

/**
 * The first file of `seen` that is not as the preview saw it (its absolute path), or undefined
 * when every one is: what the user approved is what runs.
 */
export async function changedSince(files: Files, seen: Seen): Promise<string | undefined> {
  for (const [key, then] of seen) {
    const stat = key.startsWith("stat:");
    const path = stat ? key.slice(5) : key;
    try {
      if (stat) {
        if (statKey(await files.stat(path)) !== then) return path;
      } else {
        const now = await files.read(path, then instanceof Uint8Array ? then.length + 1 : 1);
        if (!sameBytes(now, then as Uint8Array | undefined)) return path;
      }
    } catch {
      return path;
    }
  }
  return undefined;
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** What a preview found: the change to ask about, or the answer of a call that writes nothing. */
export type Preview =
  /** `seen`: what the preview read, to compare before the call runs. */
  | { kind: "change"; diff: FileDiff; seen: Seen }
  /** The call would fail or change nothing: this is its answer, and nothing is asked. */
  | { kind: "nothing"; result: ToolResult }
  /** No preview: not a file-changing tool, or the tool threw (the real run tells the model). */
  | { kind: "none" };

/** What `tool` would do with `input`: the change it would make, or its answer when it makes none. */
export async function previewChange(
  tool: AnyTool,
  input: Record<string, unknown>,
  ctx: ToolContext,
): Promise<Preview> {
  if (!tool.previewsChange) return { kind: "none" };
  try {
    const seen: Seen = new Map();
    const result = await tool.run(input, { ...ctx, fs: watched(ctx.fs, seen), preview: true });
    if (result.diff && !result.failed) return { kind: "change", diff: result.diff, seen };
    return { kind: "nothing", result };
  } catch {
    return { kind: "none" };
  }
}

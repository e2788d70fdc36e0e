/**
 * What a file-changing call would change, for its permission dialog: the tool run against the
 * call's context with its writes kept back (tools.md: "the change travels as a diff").
 */

import { dirname } from "node:path";
import type { AnyTool, FileDiff, Files, ToolContext, ToolResult } from "../tool.ts";

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

/** What a preview found: the change to ask about, or the answer of a call that writes nothing. */
export type Preview =
  | { kind: "change"; diff: FileDiff }
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
    const result = await tool.run(input, { ...ctx, fs: withoutWrites(ctx.fs), preview: true });
    if (result.diff && !result.failed) return { kind: "change", diff: result.diff };
    return { kind: "nothing", result };
  } catch {
    return { kind: "none" };
  }
}

/**
 * What a file-changing call would change, for its permission dialog: the tool run against the
 * call's context with its writes kept back (tools.md: "the change travels as a diff").
 */

import type { AnyTool, FileDiff, Files, ToolContext } from "../tool.ts";

/** `files` with every write kept back: reads see the files as they are. */
export function withoutWrites(files: Files): Files {
  return {
    resolve: (path) => files.resolve(path),
    stat: (path) => files.stat(path),
    read: (path, limit) => files.read(path, limit),
    writeAtomic: () => Promise.resolve(),
  };
}

/**
 * The change `tool` would make with `input`, or undefined when it does not say (it is no
 * file-changing tool, the call would fail or change nothing, or the tool threw).
 */
export async function previewChange(
  tool: AnyTool,
  input: Record<string, unknown>,
  ctx: ToolContext,
): Promise<FileDiff | undefined> {
  if (!tool.previewsChange) return undefined;
  try {
    const result = await tool.run(input, { ...ctx, fs: withoutWrites(ctx.fs), preview: true });
    return result.failed ? undefined : result.diff;
  } catch {
    return undefined; // The real run tells the model of the bug.
  }
}

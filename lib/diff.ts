/**
 * How an edit or a write is shown: a line diff of the change, computed with a time limit (the tools
 * that write files say it to the model; the front ends draw it).
 */

import {
  formatPatch,
  OMIT_HEADERS,
  structuredPatch,
  type StructuredPatchHunk,
} from "npm:diff@9.0.0";

/** Milliseconds the diff may take before the output gives up on showing it. */
export const DIFF_TIMEOUT = 2000;

/** The line that replaces a diff that took longer than {@linkcode DIFF_TIMEOUT} to compute. */
export const DIFF_TOO_SLOW = "(the diff took too long to compute and is not shown)";

/** One hunk of a line diff: where it starts in each text, and its ` `, `-`, `+` and `\` lines. */
export type Hunk = StructuredPatchHunk;

/** The patch from `oldText` to `newText` with 3 lines of context, and its counts. */
function patchOf(oldText: string, newText: string) {
  const patch = structuredPatch("", "", oldText, newText, undefined, undefined, {
    context: 3,
    timeout: DIFF_TIMEOUT,
  });
  if (patch === undefined) return undefined;
  let added = 0;
  let deleted = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) deleted++;
    }
  }
  return { patch, added, deleted };
}

/**
 * The hunks of the change from `oldText` to `newText` (3 lines of context) and its added and
 * deleted line counts; undefined when the diff takes longer than {@linkcode DIFF_TIMEOUT}.
 */
export function diffHunks(
  oldText: string,
  newText: string,
): { hunks: Hunk[]; added: number; deleted: number } | undefined {
  const diff = patchOf(oldText, newText);
  return diff && { hunks: diff.patch.hunks, added: diff.added, deleted: diff.deleted };
}

/** The hunks of the change from `oldText` to `newText` and its counts; no hunks when too slow. */
export function lineDiff(
  oldText: string,
  newText: string,
): { hunks: string; added: number; deleted: number } | undefined {
  const diff = patchOf(oldText, newText);
  if (diff === undefined) return undefined;
  return {
    hunks: formatPatch(diff.patch, OMIT_HEADERS).replace(/\n$/, ""),
    added: diff.added,
    deleted: diff.deleted,
  };
}

/** A rename's `WorkspaceEdit`: gathered per document, and applied to a document's text. */

import type { TextEdit, WorkspaceEdit } from "npm:vscode-languageserver-protocol@3.18.5";
import { wireToOffset } from "./positions.ts";

/** The text edits of a workspace edit by document URI, or why mm cannot apply it. */
export type GatheredEdits = { ok: true; files: Map<string, TextEdit[]> } | {
  ok: false;
  reason: string;
};

/** Why a workspace edit that creates, renames or deletes files is refused (nothing is applied). */
export const FILE_OPERATIONS =
  "the server's edit creates, renames or deletes files, which mm does not do — nothing was changed";

/** The edits of `edit`, from `documentChanges` when present, else from `changes`. */
export function gatherEdits(edit: WorkspaceEdit | null): GatheredEdits {
  const files = new Map<string, TextEdit[]>();
  if (!edit) return { ok: true, files };
  const add = (uri: string, edits: TextEdit[]) => {
    if (edits.length) files.set(uri, [...(files.get(uri) ?? []), ...edits]);
  };
  if (edit.documentChanges) {
    for (const change of edit.documentChanges) {
      if ("kind" in change) return { ok: false, reason: FILE_OPERATIONS };
      add(change.textDocument.uri, change.edits as TextEdit[]);
    }
  } else {
    for (const [uri, edits] of Object.entries(edit.changes ?? {})) add(uri, edits);
  }
  return { ok: true, files };
}

/**
 * `text` with `edits` applied: each range turned into string offsets (UTF-16, as JavaScript
 * strings count), then replaced from the last to the first. Undefined when two edits overlap.
 */
export function applyEdits(text: string, edits: TextEdit[]): string | undefined {
  const spans = edits.map((e, i) => ({
    start: wireToOffset(text, e.range.start),
    end: wireToOffset(text, e.range.end),
    newText: e.newText,
    i,
  })).sort((a, b) => a.start - b.start || a.end - b.end || a.i - b.i);
  for (let k = 1; k < spans.length; k++) {
    if (spans[k].start < spans[k - 1].end) return undefined;
  }
  let out = text;
  for (const s of spans.reverse()) out = out.slice(0, s.start) + s.newText + out.slice(s.end);
  return out;
}

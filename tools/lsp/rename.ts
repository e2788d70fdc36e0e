/** rename: the server's edits asked for, applied to the files, and summed up. */

import type { WorkspaceEdit } from "npm:vscode-languageserver-protocol@3.18.5";
import { errorReason } from "../../lib/files.ts";
import { uriKey } from "../../lib/lsp/client.ts";
import { applyEdits, gatherEdits } from "../../lib/lsp/edits.ts";
import { displayPath, renameText } from "../../lib/lsp/format.ts";
import { languageId } from "../../lib/lsp/pool.ts";
import type { LspConnection, ToolResult } from "../../lib/tool.ts";
import type { Call } from "./call.ts";
import { failedText } from "./texts.ts";

/** One rename request at `position`, its edits applied; undefined when the server had none there. */
export async function renameAt(
  call: Call,
  client: LspConnection,
  textDocument: { uri: string },
  position: { line: number; character: number },
  newName: string,
): Promise<ToolResult | undefined> {
  const r = await client.request<WorkspaceEdit | null>(
    "textDocument/rename",
    { textDocument, position, newName },
    call.ctx.signal,
  );
  return await applyRename(call, client, r, newName);
}

/** Applies a rename's edits to the files, tells the server, and sums them up. */
async function applyRename(
  call: Call,
  client: LspConnection,
  edit: WorkspaceEdit | null,
  newName: string,
): Promise<ToolResult | undefined> {
  const { ctx, server } = call;
  const gathered = gatherEdits(edit);
  if (!gathered.ok) {
    return { output: failedText(server.name, "rename", gathered.reason), failed: true };
  }
  if (gathered.files.size === 0) return undefined;
  const changes: {
    abs: string;
    path: string;
    oldText: string;
    newText: string;
    edits: number;
    bom: boolean;
    bytes: Uint8Array;
  }[] = [];
  // The server's edits are of the text it was told: a file changed since is left alone (and the
  // server told of it now, so that the rename can be asked again).
  const changedText = (path: string) =>
    failedText(
      server.name,
      "rename",
      `${path} changed after the server read it — nothing was changed; call the rename again`,
    );
  for (const [uri, edits] of gathered.files) {
    const path = displayPath(uri, call.root);
    if (!uri.startsWith("file:")) {
      return {
        output: failedText(server.name, "rename", `cannot edit ${uri} — nothing was changed`),
        failed: true,
      };
    }
    const abs = uriKey(uri);
    let oldText: string;
    let bom = false;
    let bytes: Uint8Array | undefined;
    try {
      bytes = await ctx.fs.read(abs);
      if (bytes === undefined) throw new Deno.errors.NotFound();
      bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
      oldText = new TextDecoder().decode(bytes);
    } catch (err) {
      return {
        output: failedText(
          server.name,
          "rename",
          `cannot read ${path}: ${errorReason(err)} — nothing was changed`,
        ),
        failed: true,
      };
    }
    const told = client.syncedText?.(abs);
    if (told !== undefined && told !== oldText) {
      client.sync(abs, languageId(abs), oldText);
      return { output: changedText(path), failed: true };
    }
    const newText = applyEdits(oldText, edits);
    if (newText === undefined) {
      return {
        output: failedText(
          server.name,
          "rename",
          `the server's edits of ${path} overlap — nothing was changed`,
        ),
        failed: true,
      };
    }
    changes.push({ abs, path, oldText, newText, edits: edits.length, bom, bytes });
  }
  // What was read is what is renamed: a file changed while the edits were made is left alone.
  for (const c of changes) {
    const now = await ctx.fs.read(c.abs).catch(() => undefined);
    if (!now || !sameBytes(now, c.bytes)) return { output: changedText(c.path), failed: true };
  }
  const written: string[] = [];
  for (const c of changes) {
    try {
      // A byte order mark the file had is kept (the text the server saw had none).
      await ctx.fs.writeAtomic(
        c.abs,
        new TextEncoder().encode((c.bom ? "\uFEFF" : "") + c.newText),
      );
      written.push(c.path);
    } catch (err) {
      const done = written.length ? ` (already renamed in ${written.join(", ")})` : "";
      return {
        output: failedText(
          server.name,
          "rename",
          `cannot write ${c.path}: ${errorReason(err)}${done}`,
        ),
        failed: true,
      };
    }
  }
  for (const c of changes) client.sync(c.abs, languageId(c.abs), c.newText);
  const result: ToolResult = {
    output: renameText(newName, changes.map((c) => ({ path: c.path, edits: c.edits }))),
    locations: changes.map((c) => c.abs),
  };
  if (changes.length === 1) {
    result.diff = {
      path: changes[0].abs,
      oldText: changes[0].oldText,
      newText: changes[0].newText,
    };
  }
  return result;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * A scripted language server over stdio, for the cases real servers do not produce on demand. Its
 * behaviour comes from `initializationOptions`:
 * - `publish: false`: never publishes diagnostics (else one warning per `BAD` in a synced file);
 * - `flatSymbols: true`: `documentSymbol` answers `SymbolInformation[]` (else a tree);
 * - `fileOps: true`: `rename` answers with a file creation among its edits;
 * - `outside`: an absolute path `definition` also points into, with a `deno:` URI and a duplicate.
 * `hover` answers `<word> at <line>:<character>` with the wire position it received, null on a line
 * holding `NOHOVER`; on `boom` it answers an error, on `crash` the process exits at once, on `huge` it answers 40 MB. `didOpen` and `didChange` are recorded
 * and answered by the custom request `fake/log`.
 */

import * as rpc from "npm:vscode-jsonrpc@10.0.0/node";
import process from "node:process";

interface Options {
  publish?: boolean;
  flatSymbols?: boolean;
  fileOps?: boolean;
  outside?: string;
}

const conn = rpc.createMessageConnection(
  new rpc.StreamMessageReader(process.stdin),
  new rpc.StreamMessageWriter(process.stdout),
);
const docs = new Map<string, { version: number; text: string }>();
const log: string[] = [];
let options: Options = {};
let configured: (value: unknown) => void;
const configuration = new Promise((resolve) => configured = resolve);

function lineOf(uri: string, line: number): string {
  return (docs.get(uri)?.text ?? "").split(/\r\n|\r|\n/)[line] ?? "";
}

/** The identifier around a UTF-16 offset of a line, and where it starts. */
function wordAt(text: string, character: number): { word: string; start: number } {
  const ident = /[\p{L}\p{N}_$]/u;
  let start = character;
  while (start > 0 && ident.test(text[start - 1])) start--;
  let end = character;
  while (end < text.length && ident.test(text[end])) end++;
  return { word: text.slice(start, end), start };
}

/** Every whole-word occurrence of `word` in the open documents, as ranges. */
function occurrences(word: string) {
  const found: { uri: string; line: number; character: number }[] = [];
  for (const [uri, doc] of docs) {
    doc.text.split(/\r\n|\r|\n/).forEach((text, line) => {
      for (const m of text.matchAll(/[\p{L}\p{N}_$]+/gu)) {
        if (m[0] === word) found.push({ uri, line, character: m.index! });
      }
    });
  }
  return found;
}

function publish(uri: string): void {
  if (options.publish === false) return;
  const doc = docs.get(uri)!;
  const diagnostics = [];
  const lines = doc.text.split(/\r\n|\r|\n/);
  for (let line = 0; line < lines.length; line++) {
    for (const m of lines[line].matchAll(/BAD/g)) {
      diagnostics.push({
        range: {
          start: { line, character: m.index! },
          end: { line, character: m.index! + 3 },
        },
        severity: 2,
        source: "fake",
        message: "found BAD\n  on this line",
      });
    }
  }
  conn.sendNotification("textDocument/publishDiagnostics", {
    uri,
    version: doc.version,
    diagnostics,
  });
}

conn.onRequest("initialize", (params: { initializationOptions?: Options }) => {
  options = params.initializationOptions ?? {};
  return {
    capabilities: {
      textDocumentSync: 1,
      definitionProvider: true,
      referencesProvider: true,
      hoverProvider: true,
      documentSymbolProvider: true,
      renameProvider: true,
    },
  };
});
conn.onNotification("initialized", async () => {
  configured(
    await conn.sendRequest("workspace/configuration", {
      items: [{ section: "fake" }, { section: "other" }],
    }),
  );
});
conn.onRequest("fake/log", async () => ({ log, configuration: await configuration }));
conn.onNotification("textDocument/didOpen", (p) => {
  docs.set(p.textDocument.uri, { version: p.textDocument.version, text: p.textDocument.text });
  log.push(`open ${p.textDocument.uri.split("/").at(-1)} v${p.textDocument.version}`);
  publish(p.textDocument.uri);
});
conn.onNotification("textDocument/didChange", (p) => {
  const text = p.contentChanges.at(-1).text;
  docs.set(p.textDocument.uri, { version: p.textDocument.version, text });
  log.push(`change ${p.textDocument.uri.split("/").at(-1)} v${p.textDocument.version}`);
  publish(p.textDocument.uri);
});
conn.onRequest("textDocument/hover", (p): unknown => {
  const { word } = wordAt(lineOf(p.textDocument.uri, p.position.line), p.position.character);
  if (word === "crash") Deno.exit(3);
  if (word === "huge") return { contents: { kind: "markdown", value: "h".repeat(40_000_000) } };
  if (word === "boom") throw new rpc.ResponseError(-32603, "boom happened\nat the server");
  if (word === "" || lineOf(p.textDocument.uri, p.position.line).includes("NOHOVER")) return null;
  return {
    contents: { kind: "markdown", value: `${word} at ${p.position.line}:${p.position.character}` },
  };
});
conn.onRequest("textDocument/definition", (p): unknown => {
  const { word } = wordAt(lineOf(p.textDocument.uri, p.position.line), p.position.character);
  const first = occurrences(word)[0];
  if (!word || !first) return null;
  const range = {
    start: { line: first.line, character: first.character },
    end: { line: first.line, character: first.character + word.length },
  };
  const links = [
    { targetUri: first.uri, targetRange: range, targetSelectionRange: range },
    { targetUri: first.uri, targetRange: range, targetSelectionRange: range },
  ];
  if (options.outside) {
    const at = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
    links.push({
      targetUri: `file://${options.outside}`,
      targetRange: at,
      targetSelectionRange: at,
    });
    links.push({ targetUri: "deno:/asset/lib.d.ts", targetRange: at, targetSelectionRange: at });
  }
  return links;
});
conn.onRequest("textDocument/references", (p) => {
  const { word } = wordAt(lineOf(p.textDocument.uri, p.position.line), p.position.character);
  return occurrences(word).reverse().map((o) => ({
    uri: o.uri,
    range: {
      start: { line: o.line, character: o.character },
      end: { line: o.line, character: o.character + word.length },
    },
  }));
});
conn.onRequest("textDocument/documentSymbol", (p): unknown => {
  const at = (line: number, character: number) => ({
    start: { line, character },
    end: { line, character: character + 1 },
  });
  if (options.flatSymbols) {
    return [
      { name: "b", kind: 13, location: { uri: p.textDocument.uri, range: at(2, 0) } },
      {
        name: "a",
        kind: 12,
        containerName: "Box",
        location: { uri: p.textDocument.uri, range: at(0, 0) },
      },
    ];
  }
  return [
    { name: "later", kind: 12, range: at(3, 0), selectionRange: at(3, 0) },
    {
      name: "Box",
      kind: 5,
      detail: "class\nBox",
      range: at(0, 0),
      selectionRange: at(0, 6),
      children: [
        { name: "size", kind: 8, detail: "number", range: at(2, 2), selectionRange: at(2, 2) },
        { name: "open", kind: 6, range: at(1, 2), selectionRange: at(1, 2) },
      ],
    },
  ];
});
conn.onRequest("textDocument/rename", (p): unknown => {
  const { word } = wordAt(lineOf(p.textDocument.uri, p.position.line), p.position.character);
  if (!word) return null;
  const changes: Record<string, unknown[]> = {};
  for (const o of occurrences(word)) {
    (changes[o.uri] ??= []).push({
      range: {
        start: { line: o.line, character: o.character },
        end: { line: o.line, character: o.character + word.length },
      },
      newText: p.newName,
    });
  }
  if (options.fileOps) {
    return {
      documentChanges: [
        { kind: "create", uri: "file:///tmp/new.txt" },
        ...Object.entries(changes)
          .map(([uri, edits]) => ({ textDocument: { uri, version: null }, edits })),
      ],
    };
  }
  return { changes };
});
conn.onRequest("shutdown", () => null);
conn.onNotification("exit", () => Deno.exit(0));
conn.listen();

import { assertEquals } from "../helpers/assert.ts";
import {
  AS_LAST_PUBLISHED,
  cleanText,
  diagnosticLines,
  diagnosticsHeadline,
  displayPath,
  hoverText,
  locationLines,
  noDiagnosticsText,
  placesOf,
  referencesHeadline,
  renameText,
  symbolLines,
} from "../../lib/lsp/format.ts";

const ROOT = "/work/project";
const at = (line: number, character: number) => ({
  start: { line, character },
  end: { line, character: character + 1 },
});

Deno.test("lsp answers", async (t) => {
  await t.step("paths inside the project are relative, others absolute, other URIs kept", () => {
    assertEquals(displayPath("file:///work/project/src/a.go", ROOT), "src/a.go");
    assertEquals(
      displayPath("file:///usr/lib/go/src/fmt/print.go", ROOT),
      "/usr/lib/go/src/fmt/print.go",
    );
    assertEquals(displayPath("file:///work/projectile/a.go", ROOT), "/work/projectile/a.go");
    assertEquals(displayPath("file:///work/project/caf%C3%A9.go", ROOT), "café.go");
    assertEquals(displayPath("deno:/asset/lib.d.ts", ROOT), "deno:/asset/lib.d.ts");
  });

  await t.step("Location, Location[] and LocationLink[] are all read", () => {
    const uri = "file:///work/project/a.go";
    assertEquals(placesOf(null), []);
    assertEquals(placesOf({ uri, range: at(1, 2) }), [{ uri, start: { line: 1, character: 2 } }]);
    assertEquals(
      placesOf([{ targetUri: uri, targetRange: at(0, 0), targetSelectionRange: at(3, 4) }]),
      [{ uri, start: { line: 3, character: 4 } }],
    );
  });

  await t.step(
    "locations: sorted by path then position, duplicates removed, columns in characters",
    async () => {
      const files: Record<string, string[]> = {
        "/work/project/b.go": ["x", '  s := "😀漢" + greet()  '],
        "/work/project/a.go": ["func greet() {}"],
      };
      const linesOf = (uri: string) =>
        Promise.resolve(uri.startsWith("file:") ? files[new URL(uri).pathname] : undefined);
      const lines = await locationLines(
        [
          { uri: "file:///work/project/b.go", start: { line: 1, character: 15 } },
          { uri: "file:///work/project/a.go", start: { line: 0, character: 5 } },
          { uri: "file:///work/project/b.go", start: { line: 1, character: 15 } },
          { uri: "file:///work/project/b.go", start: { line: 0, character: 0 } },
          { uri: "file:///elsewhere/c.go", start: { line: 4, character: 2 } },
        ],
        ROOT,
        linesOf,
      );
      assertEquals(lines, [
        "/elsewhere/c.go:5:3",
        "a.go:1:6  func greet() {}",
        "b.go:1:1  x",
        'b.go:2:15  s := "😀漢" + greet()',
      ]);
      assertEquals(referencesHeadline(4), "4 reference(s):");
    },
  );

  await t.step("hover: the server's text as sent, whatever its shape", () => {
    assertEquals(hoverText(null), "");
    assertEquals(
      hoverText({ contents: { kind: "markdown", value: "```go\nfunc greet()\n```\n" } }),
      "```go\nfunc greet()\n```",
    );
    assertEquals(hoverText({ contents: "plain" }), "plain");
    assertEquals(
      hoverText({ contents: [{ language: "python", value: "def f()" }, "Docs."] }),
      "```python\ndef f()\n```\n\nDocs.",
    );
    assertEquals(hoverText({ contents: { kind: "plaintext", value: "  " } }), "");
  });

  await t.step("symbols: a tree in file order, children indented, detail in brackets", () => {
    assertEquals(
      symbolLines([
        { name: "later", kind: 12, range: at(9, 0), selectionRange: at(9, 5) },
        {
          name: "Box",
          kind: 23,
          detail: "struct{\n size int }",
          range: at(0, 0),
          selectionRange: at(1, 5),
          children: [
            { name: "size", kind: 8, detail: "int", range: at(3, 1), selectionRange: at(3, 1) },
            { name: "open", kind: 6, range: at(2, 1), selectionRange: at(2, 1) },
          ],
        },
      ]),
      [
        "struct Box  [struct{ size int }]  line 2",
        "  method open  line 3",
        "  field size  [int]  line 4",
        "function later  line 10",
      ],
    );
  });

  await t.step("symbols: a flat SymbolInformation list, in file order", () => {
    const uri = "file:///work/project/a.py";
    assertEquals(
      symbolLines([
        { name: "b", kind: 13, location: { uri, range: at(5, 0) } },
        { name: "a", kind: 6, containerName: "Box", location: { uri, range: at(1, 0) } },
      ]),
      ["method a  [in Box]  line 2", "variable b  line 6"],
    );
    assertEquals(symbolLines(null), []);
  });

  await t.step("diagnostics: one line each, sorted, severity names, message on one line", () => {
    const lines = ['x := "😀" + y', "ok"];
    assertEquals(
      diagnosticLines("main.go", [
        { range: at(1, 0), message: "second", severity: 2 },
        { range: at(0, 11), message: "undefined: y\n  more", severity: 1, source: "compiler" },
        { range: at(0, 11), message: "undefined: y\n  more", severity: 1, source: "compiler" },
        { range: at(0, 0), message: "hint here", severity: 4 },
        { range: at(0, 0), message: "no severity" },
        { range: at(0, 1), message: "info", severity: 3, source: "vet" },
      ], lines),
      [
        "error main.go:1:1 no severity",
        "hint main.go:1:1 hint here",
        "info main.go:1:2 info [vet]",
        "error main.go:1:11 undefined: y more [compiler]",
        "warning main.go:2:1 second",
      ],
    );
  });

  await t.step("diagnostics headlines and the texts around them", () => {
    assertEquals(diagnosticsHeadline(2, "main.go"), "2 diagnostic(s) in main.go:");
    assertEquals(
      diagnosticsHeadline(1, "main.go", AS_LAST_PUBLISHED),
      "1 diagnostic(s) in main.go (as last published):",
    );
    assertEquals(cleanText("main.go"), "no diagnostics: main.go is clean");
    assertEquals(
      cleanText("main.go", AS_LAST_PUBLISHED),
      "no diagnostics: main.go is clean (as last published)",
    );
    assertEquals(
      noDiagnosticsText("main.go", "gopls"),
      "no diagnostics received for main.go within 3s (gopls may still be loading the project, " +
        "or it does not publish diagnostics for this file; call diagnostics again in a moment)",
    );
  });

  await t.step("rename: the summary, then one line per file sorted by path", () => {
    assertEquals(
      renameText("hello", [{ path: "main.go", edits: 2 }, { path: "lib/a.go", edits: 1 }]),
      "renamed to hello: 3 edit(s) in 2 file(s)\nlib/a.go: 1 edit(s)\nmain.go: 2 edit(s)",
    );
  });
});

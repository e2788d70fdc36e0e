/**
 * The lsp tool: its declaration and every text of tools.md, against the scripted server of
 * tests/helpers/lsp/fake_server.ts (real servers: mod_<server>_test.ts beside this file).
 */

import { type Config, defaultConfig } from "../../../lib/config/config.ts";
import { rejectedText } from "../../../lib/permissions/prompt.ts";
import { toolSchema } from "../../../lib/agent/schema.ts";
import { availableLspServers } from "../../../lib/lsp/servers.ts";
import { normalizeAction } from "../../../tools/lsp/call.ts";
import { lsp, lspTool } from "../../../tools/lsp/mod.ts";
import {
  ACTION_DESCRIPTION,
  COLUMN_DESCRIPTION,
  LINE_DESCRIPTION,
  lspBannerLine,
  lspDescription,
  NO_POOL,
  PATH_DESCRIPTION,
} from "../../../tools/lsp/texts.ts";
import { declaredTools } from "../../../tools/mod.ts";
import { assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { fakeContext } from "../../helpers/fake_context.ts";
import {
  fakeServer,
  GOPLS,
  groupGone,
  lspContext,
  project,
  PYRIGHT,
  removeProjects,
} from "../../helpers/lsp/fixtures.ts";

/** The servers of `config` on the test process's PATH, as a front end finds them at start-up. */
function found(config: Config) {
  return availableLspServers(config, Deno.env.toObject(), Deno.cwd());
}

Deno.test("lsp declaration", async (t) => {
  const dir = await project({ "gopls": "#!/bin/sh\n" });
  await Deno.chmod(`${dir}/gopls`, 0o755);
  const config = { ...defaultConfig(), lsp: { servers: [GOPLS, PYRIGHT] } };

  await t.step("declared only when a configured server is on the PATH", () => {
    assertEquals(lspTool(found(defaultConfig())).declared(defaultConfig()), false);
    const missing = { ...defaultConfig(), lsp: { servers: [{ ...GOPLS, command: "no-such-ls" }] } };
    assertEquals(lspTool(found(missing)).declared(missing), false);
    const deno = { ...defaultConfig(), lsp: { servers: [{ ...GOPLS, command: "deno" }] } };
    assertEquals(lspTool(found(deno)).declared(deno), true);
    assertEquals(lsp.declared(deno), false, "the built-in list's lsp, before discovery");
    const names = declaredTools(deno, found(deno)).map((t) => t.name);
    assertEquals(names.indexOf("lsp"), names.indexOf("edit_file") + 1);
    assertEquals(declaredTools(deno).map((t) => t.name).includes("lsp"), false);
  });

  await t.step("the banner says which servers were found, or that none was", () => {
    const none = { ...defaultConfig(), lsp: { servers: [{ ...GOPLS, command: "no-such-ls" }] } };
    assertEquals(
      lspBannerLine(none, found(none)),
      "lsp: no configured server is on the PATH — the lsp tool is not declared",
    );
    assertEquals(
      lspBannerLine(config, availableLspServers(config, { PATH: dir }, dir)),
      "lsp: gopls (.go)",
    );
    assertEquals(lspBannerLine(defaultConfig(), found(defaultConfig())), undefined);
  });

  await t.step("the description names the servers, their extensions and the six actions", () => {
    const text = lspDescription([GOPLS, PYRIGHT]);
    assertStringIncludes(text, "Servers available: gopls (.go), pyright (.py, .pyi).");
    for (const a of ["definition", "references", "hover", "symbols", "diagnostics", "rename"]) {
      assertStringIncludes(text, a);
    }
    const deno = { ...defaultConfig(), lsp: { servers: [{ ...GOPLS, command: "deno" }] } };
    assertStringIncludes(
      toolSchema(lspTool(found(deno)), deno).function.description,
      "Servers available: gopls (.go).",
    );
  });

  await t.step("fields: action, path, symbol, line, column, new_name", () => {
    assertEquals(Object.keys(lsp.parameters), [
      "action",
      "path",
      "symbol",
      "line",
      "column",
      "new_name",
    ]);
    assertEquals(
      ACTION_DESCRIPTION,
      "definition, references, hover, symbols, diagnostics or rename.",
    );
    assertEquals(
      PATH_DESCRIPTION,
      "File path, relative to the working directory. Its extension picks the server.",
    );
    assertEquals(
      LINE_DESCRIPTION,
      "1-based line. With symbol: restricts the search to that line. With column: the exact position.",
    );
    assertEquals(
      COLUMN_DESCRIPTION,
      "1-based column, in characters, pointing inside the identifier. Only needed without symbol.",
    );
    const required = Object.entries(lsp.parameters).filter(([, p]) => !p.optional).map(([n]) => n);
    assertEquals(required, ["action", "path"]);
    assertEquals([lsp.parameters.line.type, lsp.parameters.column.type], ["integer", "integer"]);
  });

  await t.step("kind read and no permission, except rename: kind edit, asks", () => {
    for (const action of ["definition", "references", "hover", "symbols", "diagnostics"]) {
      const input = { action, path: "main.go" };
      assertEquals(typeof lsp.kind === "function" && lsp.kind(input), "read");
      assertEquals(typeof lsp.asks === "function" && lsp.asks(input), false);
    }
    const rename = { action: "rename", path: "main.go", symbol: "a", new_name: "b" };
    assertEquals(typeof lsp.kind === "function" && lsp.kind(rename), "edit");
    assertEquals(typeof lsp.asks === "function" && lsp.asks(rename), true);
    assertEquals(rejectedText("lsp"), "[rename rejected by the user]");
    assertEquals([lsp.emoji, lsp.counter], ["🔎", "lsp"]);
  });

  await t.step("display: 🔎 lsp: definition main.go greet, …:9:14, rename … → …", () => {
    assertEquals(
      lsp.summary({ action: "definition", path: "main.go", symbol: "greet" }),
      "definition main.go greet",
    );
    assertEquals(
      lsp.summary({ action: "hover", path: "main.go", line: 9, column: 14 }),
      "hover main.go:9:14",
    );
    assertEquals(
      lsp.summary({ action: "references", path: "main.go", symbol: "x", line: 3 }),
      "references main.go:3 x",
    );
    assertEquals(
      lsp.summary({ action: "rename", path: "main.go", symbol: "greet", new_name: "hello" }),
      "rename main.go greet → hello",
    );
    assertEquals(
      lsp.summary({ action: "rename", path: "main.go", symbol: "Greet 1 12 Hello" }),
      "rename main.go Greet → Hello",
    );
    assertEquals(lsp.summary({ action: "symbols", path: "main.go" }), "symbols main.go");
  });

  await t.step("actions forgive case, separators and a few other names", () => {
    assertEquals(normalizeAction("Definition"), "definition");
    assertEquals(normalizeAction("textDocument/references"), "references");
    assertEquals(normalizeAction("find_references"), "references");
    assertEquals(normalizeAction("document-symbols"), "symbols");
    assertEquals(normalizeAction("diagnostic"), "diagnostics");
    assertEquals(normalizeAction("compile"), undefined);
  });

  await t.step("without a pool in the context", async () => {
    const r = await lsp.run({ action: "hover", path: "a.go", symbol: "x" }, fakeContext());
    assertEquals(r, { output: NO_POOL, failed: true, locations: ["/work/project/a.go"] });
  });
  await removeProjects();
});

Deno.test("lsp failures and answers (scripted server)", async (t) => {
  const files = {
    "a.fk": "one BAD two\n// ghost here\nlet ghost = 1 NOHOVER\nx ghost\n",
    "b.fk": 'const s = "😀😀 漢字"; greet(s);\ngreet\n',
    "c.fk": "boom crash\n",
    "notes.md": "# notes\n",
  };
  const dir = await project({ ...files, "sub/d.fk": "ghost\n" });
  const outside = await project({ "lib.fk": "outside line\n" });
  const { pool, call } = lspContext(dir, [fakeServer({ outside: `${outside}/lib.fk` })]);
  const out = async (input: Parameters<typeof call>[0]) => (await call(input)).output;
  try {
    await t.step("unknown action", async () => {
      assertEquals(
        await out({ action: "compile", path: "a.fk" }),
        '[lsp: unknown action "compile" — use definition, references, hover, symbols, diagnostics or rename]',
      );
    });

    await t.step("no server for the extension", async () => {
      const r = await call({ action: "hover", path: "notes.md", symbol: "x" });
      assertEquals(r.output, '[lsp: no language server for "notes.md" — configured: fake (.fk)]');
      assertEquals(r.failed, true);
    });

    await t.step("missing file, directory", async () => {
      assertEquals(await out({ action: "symbols", path: "zz.fk" }), "[lsp: zz.fk does not exist]");
      await Deno.mkdir(`${dir}/dir.fk`);
      assertEquals(
        await out({ action: "symbols", path: "dir.fk" }),
        "[lsp: dir.fk is a directory, not a file]",
      );
    });

    await t.step("symbol not found, on the file and on a line", async () => {
      assertEquals(
        await out({ action: "definition", path: "a.fk", symbol: "foo" }),
        '[lsp: "foo" not found in a.fk]',
      );
      assertEquals(
        await out({ action: "definition", path: "a.fk", symbol: "ghost", line: 1 }),
        '[lsp: "ghost" not found on line 1 of a.fk — it is on line(s) 2, 3, 4]',
      );
    });

    await t.step("positions past the end are refused with the counts", async () => {
      assertEquals(
        await out({ action: "hover", path: "a.fk", line: 3, column: 40 }),
        "[lsp: column 40 is past the end of line 3 (21 characters)]",
      );
      assertEquals(
        await out({ action: "hover", path: "b.fk", line: 1, column: 30 }),
        "[lsp: column 30 is past the end of line 1 (28 characters)]",
      );
      assertEquals(
        await out({ action: "hover", path: "a.fk", line: 9, symbol: "ghost" }),
        "[lsp: line 9 is past the end of a.fk (4 lines)]",
      );
      assertEquals(
        await out({ action: "hover", path: "a.fk", line: -1, column: 2 }),
        "[lsp: line -1 is not a line number: lines and columns count from 1]",
      );
    });

    await t.step("neither a symbol nor a position", async () => {
      assertEquals(
        await out({ action: "definition", path: "a.fk", line: 2 }),
        '[lsp: definition needs symbol (the identifier, as written in the code), or line and column — call lsp again with {"action": "definition", "path": "a.fk", "symbol": "<the identifier>"}]',
      );
    });

    await t.step("rename without new_name", async () => {
      assertEquals(
        await out({ action: "rename", path: "a.fk", symbol: "ghost" }),
        '[lsp: rename needs new_name — call lsp again with {"action": "rename", "path": "a.fk", "symbol": "ghost", "new_name": "<the new identifier>"}; do not use edit_file for a rename]',
      );
      assertEquals(
        await out({ action: "rename", path: "a.fk", symbol: "ghost", new_name: "ghost" }),
        "[lsp: the symbol is already called ghost — give new_name a different identifier]",
      );
    });

    await t.step(
      "0-based UTF-16 on the wire: the server sees the column after emoji and CJK",
      async () => {
        // `greet` is column 20 in characters; the server receives character 21.
        assertEquals(
          await out({ action: "hover", path: "b.fk", symbol: "greet", line: 1 }),
          "greet at 0:21",
        );
        assertEquals(
          await out({ action: "hover", path: "b.fk", line: 1, column: 22 }),
          "greet at 0:23",
        );
        assertEquals(
          await out({ action: "hover", path: "b.fk", line: 1, column: 15 }),
          "漢字 at 0:16",
        );
      },
    );

    await t.step(
      "occurrences: code lines first, then comments, until the server answers",
      async () => {
        // Line 3 (code) gets no answer, line 4 (code) does; the comment on line 2 is not needed.
        assertEquals(await out({ action: "hover", path: "a.fk", symbol: "ghost" }), "ghost at 3:2");
        assertEquals(
          await out({ action: "hover", path: "a.fk", symbol: "ghost", line: 3 }),
          "[lsp: no hover information found for the symbol at a.fk:3:5]",
        );
        assertEquals(
          await out({ action: "definition", path: "a.fk", line: 2, column: 1 }),
          "[lsp: no definition found for the symbol at a.fk:2:1]",
        );
      },
    );

    await t.step("the server's error", async () => {
      assertEquals(
        await out({ action: "hover", path: "c.fk", symbol: "boom" }),
        "[lsp: fake: hover failed: boom happened at the server]",
      );
    });

    await t.step(
      "definition: sorted, duplicates removed, outside the project absolute",
      async () => {
        assertEquals(
          await out({ action: "definition", path: "a.fk", symbol: "ghost", line: 4 }),
          [
            `${outside}/lib.fk:1:1  outside line`,
            "a.fk:2:4  // ghost here",
            "deno:/asset/lib.d.ts:1:1",
          ].join("\n"),
        );
      },
    );

    await t.step("references: N reference(s):, sorted by path then position", async () => {
      await out({ action: "hover", path: "sub/d.fk", symbol: "ghost" });
      assertEquals(
        await out({ action: "references", path: "a.fk", symbol: "ghost" }),
        [
          "4 reference(s):",
          "a.fk:2:4  // ghost here",
          "a.fk:3:5  let ghost = 1 NOHOVER",
          "a.fk:4:3  x ghost",
          "sub/d.fk:1:1  ghost",
        ].join("\n"),
      );
    });

    await t.step("symbols: a tree, children indented", async () => {
      assertEquals(
        await out({ action: "symbols", path: "a.fk" }),
        [
          "class Box  [class Box]  line 1",
          "  method open  line 2",
          "  field size  [number]  line 3",
          "function later  line 4",
        ].join("\n"),
      );
    });

    await t.step(
      "diagnostics: published, as last published, then after an edit on disk",
      async () => {
        const first = await out({ action: "diagnostics", path: "a.fk" });
        assertEquals(
          first.replace(" (as last published)", ""),
          "1 diagnostic(s) in a.fk:\nwarning a.fk:1:5 found BAD on this line [fake]",
        );
        assertEquals(
          await out({ action: "diagnostics", path: "a.fk" }),
          "1 diagnostic(s) in a.fk (as last published):\nwarning a.fk:1:5 found BAD on this line [fake]",
        );
        await Deno.writeTextFile(`${dir}/a.fk`, files["a.fk"].replace("BAD", "ok"));
        assertEquals(
          await out({ action: "diagnostics", path: "a.fk" }),
          "no diagnostics: a.fk is clean",
        );
        assertEquals(
          await out({ action: "diagnostics", path: "a.fk" }),
          "no diagnostics: a.fk is clean (as last published)",
        );
        await Deno.writeTextFile(`${dir}/a.fk`, files["a.fk"]);
      },
    );

    await t.step("rename: edits applied on disk, a summary per file, the server told", async () => {
      const r = await call({ action: "rename", path: "a.fk", symbol: "ghost", new_name: "spirit" });
      assertEquals(
        r.output,
        "renamed to spirit: 4 edit(s) in 2 file(s)\na.fk: 3 edit(s)\nsub/d.fk: 1 edit(s)",
      );
      assertEquals(r.locations?.sort(), [`${dir}/a.fk`, `${dir}/sub/d.fk`]);
      assertEquals(await Deno.readTextFile(`${dir}/sub/d.fk`), "spirit\n");
      assertEquals(
        await Deno.readTextFile(`${dir}/a.fk`),
        "one BAD two\n// spirit here\nlet spirit = 1 NOHOVER\nx spirit\n",
      );
      assertEquals(await out({ action: "hover", path: "a.fk", symbol: "spirit" }), "spirit at 3:2");
    });

    await t.step("rename after emoji: UTF-16 edits, a diff for one file", async () => {
      const r = await call({ action: "rename", path: "b.fk", symbol: "greet 1 21 hello" });
      assertEquals(r.output, "renamed to hello: 2 edit(s) in 1 file(s)\nb.fk: 2 edit(s)");
      const text = 'const s = "😀😀 漢字"; hello(s);\nhello\n';
      assertEquals(await Deno.readTextFile(`${dir}/b.fk`), text);
      assertEquals(r.diff, { path: `${dir}/b.fk`, oldText: files["b.fk"], newText: text });
    });

    await t.step("rename: a file changed after the server read it writes nothing", async () => {
      await Deno.writeTextFile(`${dir}/f.fk`, "alpha\n");
      await Deno.writeTextFile(`${dir}/g.fk`, "alpha x\n");
      // The server is told of g.fk, which then changes on disk behind its back.
      assertEquals(await out({ action: "hover", path: "g.fk", symbol: "alpha" }), "alpha at 0:0");
      await Deno.writeTextFile(`${dir}/g.fk`, "zz alpha x\n");
      const r = await call({ action: "rename", path: "f.fk", symbol: "alpha", new_name: "beta" });
      assertEquals(
        r.output,
        "[lsp: fake: rename failed: g.fk changed after the server read it — nothing was changed; call the rename again]",
      );
      assertEquals(await Deno.readTextFile(`${dir}/f.fk`), "alpha\n");
      assertEquals(await Deno.readTextFile(`${dir}/g.fk`), "zz alpha x\n");
      // The server was told of the file as it is: the rename asked again is right.
      const again = await call({
        action: "rename",
        path: "f.fk",
        symbol: "alpha",
        new_name: "beta",
      });
      assertEquals(again.failed, undefined, again.output);
      assertEquals(await Deno.readTextFile(`${dir}/g.fk`), "zz beta x\n");
      assertEquals(await Deno.readTextFile(`${dir}/f.fk`), "beta\n");
    });

    await t.step("rename keeps a byte order mark", async () => {
      await Deno.writeTextFile(`${dir}/e.fk`, "\uFEFFmark here\n");
      const r = await call({ action: "rename", path: "e.fk", symbol: "mark", new_name: "sign" });
      assertEquals(r.output, "renamed to sign: 1 edit(s) in 1 file(s)\ne.fk: 1 edit(s)");
      const bytes = await Deno.readFile(`${dir}/e.fk`);
      assertEquals(
        new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes),
        "\uFEFFsign here\n",
      );
    });

    await t.step(
      "a server that dies under the call is started again once, then reported",
      async () => {
        const [before] = await pool.running();
        assertMatch(
          await out({ action: "hover", path: "c.fk", symbol: "crash" }),
          /^\[lsp: fake: hover failed: the server stopped \(exit code 3\)/,
        );
        assertEquals(await groupGone(before.pid), []);
        assertEquals(
          await out({ action: "hover", path: "c.fk", symbol: "boom", line: 1 }),
          "[lsp: fake: hover failed: boom happened at the server]",
        );
        const [after] = await pool.running();
        assertEquals(after.pid !== before.pid, true);
      },
    );
  } finally {
    const running = await pool.running();
    await pool.close();
    for (const c of running) assertEquals(await groupGone(c.pid), []);
  }
  await removeProjects();
});

Deno.test("lsp: other servers' answers (scripted)", async (t) => {
  const dir = await project({ "a.fk": "one two\n", "b.fk": "x\n" });
  const silent = lspContext(dir, [
    fakeServer({ publish: false, flatSymbols: true, fileOps: true }),
  ]);
  try {
    await t.step("symbols as a flat SymbolInformation list", async () => {
      assertEquals(
        (await silent.call({ action: "symbols", path: "a.fk" })).output,
        "function a  [in Box]  line 1\nvariable b  line 3",
      );
    });

    await t.step("a rename that creates files is refused, nothing changed", async () => {
      assertEquals(
        (await silent.call({ action: "rename", path: "a.fk", symbol: "one", new_name: "uno" }))
          .output,
        "[lsp: fake: rename failed: the server's edit creates, renames or deletes files, which mm does not do — nothing was changed]",
      );
      assertEquals(await Deno.readTextFile(`${dir}/a.fk`), "one two\n");
    });

    await t.step("no diagnostics received within 3s", async () => {
      assertEquals(
        (await silent.call({ action: "diagnostics", path: "b.fk" })).output,
        "no diagnostics received for b.fk within 3s (fake may still be loading the project, or it does not publish diagnostics for this file; call diagnostics again in a moment)",
      );
    });
  } finally {
    await silent.pool.close();
  }

  await t.step("a server that cannot start", async () => {
    const broken = lspContext(dir, [{
      name: "nope",
      command: "false",
      args: [],
      extensions: [".fk"],
    }]);
    assertMatch(
      (await broken.call({ action: "symbols", path: "a.fk" })).output,
      /^\[lsp: nope: start failed: the server stopped \(exit code 1\)\]$/,
    );
    await broken.pool.close();
  });
  await removeProjects();
});

/** edit_file through the real `mm -p`, against the scripted server. */

import { dirname } from "node:path";
import { LOOP_DETECTED, loopStoppedText } from "../../lib/agent/loop_detector.ts";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, workdir } from "../helpers/mm.ts";
import { type ScriptedCall, ScriptedServer } from "../helpers/server/mod.ts";
import { CORPUS, type CorpusCase } from "../tools/edit_file/corpus/mod.ts";

const server = ScriptedServer.start();

const GO = "package main\n\nfunc main() {\n\tcount := 1\n\tprint(count)\n}\n";

/** A working directory for `model` holding `main.go` (or `files`). */
async function dirFor(
  model: string,
  extra = "",
  files: Record<string, string> = { "main.go": GO },
): Promise<string> {
  const dir = await workdir(`url: ${server.url}\nmodel: ${model}\naskUserTool: false\n${extra}`);
  for (const [path, content] of Object.entries(files)) {
    await Deno.writeTextFile(`${dir}/${path}`, content);
  }
  return dir;
}

/** The tool messages mm sent back in the `n`th chat request for `model`. */
function toolMessages(model: string, n: number): string[] {
  return server.chats(model)[n].body.messages
    .filter((m: { role: string }) => m.role === "tool")
    .map((m: { content: string }) => m.content);
}

/** What is wrong with a corpus case's outcome through mm (`path` on disk), or "". */
function corpusFault(c: CorpusCase, path: string, after: string, output: string): string {
  if (c.want === undefined) {
    if (after !== c.file) return "the file changed";
    if (!output.startsWith(`${path}: `)) return "not refused";
  } else {
    if (after !== c.want) return "not the intended file";
    if (!output.startsWith(`edited ${path}: `)) return "no headline";
  }
  return c.says && !output.includes(c.says) ? `the output lacks ${JSON.stringify(c.says)}` : "";
}

/** Scripts one message with `calls` then an answer, runs `mm -p`, and returns the run. */
async function oneStep(model: string, calls: ScriptedCall[], dir: string, args: string[] = []) {
  server.script(model, [{ toolCalls: calls, chunkSize: 7 }, { text: "done" }]);
  return await runMM(["-p", "edit it", ...args], { cwd: dir });
}

Deno.test("edit_file end to end", async (t) => {
  await runCases(t, {
    "a Go block retyped with spaces is matched, re-indented with tabs, written": async () => {
      const dir = await dirFor("edit-relaxed");
      const run = await oneStep("edit-relaxed", [{
        name: "edit_file",
        arguments: {
          path: "main.go",
          edits: [{
            old: "    count := 1\n    print(count)\n",
            new: "    count := 2\n    print(count)\n",
          }],
        },
      }], dir);
      assertEquals(run.code, 0, run.stderr);
      assertEquals(
        await Deno.readTextFile(`${dir}/main.go`),
        GO.replace("count := 1", "count := 2"),
      );
      assertEquals(
        toolMessages("edit-relaxed", 1)[0],
        "edited main.go: 1 edit applied, 1 line added, 1 deleted, first change at line 4 · 1 matched ignoring whitespace\n" +
          "  1 │ package main\n  2 │\n  3 │ func main() {\n- 4 │ \tcount := 1\n+ 4 │ \tcount := 2\n" +
          "  5 │ \tprint(count)\n  6 │ }",
      );
      assertStringIncludes(run.stderr, "📝 edit_file: main.go\n");
      assertStringIncludes(run.stderr, "📝 1 file op(s)");
      assertEquals(run.stdout, "done\n");
    },
    "a Latin-1 file: read with its note, edited in Latin-1, every other byte kept": async () => {
      const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
      const dir = await dirFor("edit-latin1", "", {});
      const before = latin1('# caf\xe9 \xa9 1999\r\nname = "Jos\xe9"\r\nprice = 3\x80\r\n');
      await Deno.writeFile(`${dir}/prices.txt`, before);
      server.script("edit-latin1", [
        { toolCalls: [{ name: "read_file", arguments: { path: "prices.txt" } }] },
        {
          toolCalls: [{
            name: "edit_file",
            arguments: {
              path: "prices.txt",
              edits: [{ old: "price = 3€", new: "price = 4€ « net »" }],
            },
          }],
        },
        { text: "done" },
      ]);
      const run = await runMM(["-p", "edit it"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(
        toolMessages("edit-latin1", 1)[0],
        "[prices.txt is Windows-1252 (Latin-1) text, not UTF-8: shown decoded; edit_file and write_file keep its encoding]\n" +
          '# café © 1999\r\nname = "José"\r\nprice = 3€\r\n',
      );
      assertStringIncludes(toolMessages("edit-latin1", 2)[1], "edited prices.txt: 1 edit applied");
      assertEquals(
        await Deno.readFile(`${dir}/prices.txt`),
        latin1('# caf\xe9 \xa9 1999\r\nname = "Jos\xe9"\r\nprice = 4\x80 \xab net \xbb\r\n'),
      );
    },
    "not found: the spec's refusal, the file untouched": async () => {
      const dir = await dirFor("edit-missing");
      const run = await oneStep("edit-missing", [{
        name: "edit_file",
        arguments: {
          path: "main.go",
          edits: [{ old: "func main() {\n    count := 2\n    print(count)\n}", new: "x" }],
        },
      }], dir);
      assertEquals(run.code, 0, run.stderr);
      assertEquals(
        toolMessages("edit-missing", 1)[0],
        "main.go: edit #1: old text not found — it must match the file exactly, including indentation and line breaks:\n" +
          "  │ func main() {\n  │     count := 2\n  │     print(count)\n  │ }\n" +
          "the closest the file comes to it — copy these lines:\n" +
          "  │ 3 │ func main() {\n  │ 4 │ \tcount := 1\n  │ 5 │ \tprint(count)\n  │ 6 │ }",
      );
      assertEquals(await Deno.readTextFile(`${dir}/main.go`), GO);
    },
    "small-model shapes: top-level old and new, edits as a JSON string; else what was expected":
      async () => {
        const dir = await dirFor("edit-shapes", "", { "a.txt": "one\ntwo\nthree\n" });
        const run = await oneStep("edit-shapes", [
          { name: "edit_file", arguments: { path: "a.txt", old: "one", new: "1" } },
          {
            name: "edit_file",
            arguments: { path: "a.txt", edits: JSON.stringify([{ old: "two", new: "2" }]) },
          },
          { name: "edit_file", arguments: { path: "a.txt", old: "three" } },
          { name: "Edit_File", arguments: { path: "a.txt" } },
        ], dir);
        assertEquals(run.code, 0, run.stderr);
        const [a, b, c, d] = toolMessages("edit-shapes", 1);
        assertStringIncludes(a, "edited a.txt: 1 edit applied");
        assertStringIncludes(b, "edited a.txt: 1 edit applied");
        assertEquals(await Deno.readTextFile(`${dir}/a.txt`), "1\n2\nthree\n");
        const expected =
          ' Expected: path (string): Path of an existing file; edits (array): Replacements, all resolved against the original file. Each is {"old": "<exact text to find, present exactly once>", "new": "<replacement; empty deletes the matched text>"}; dry_run (boolean, optional): Report what would change, write nothing. Call edit_file again with each parameter as its own field.]';
        assertEquals(
          c,
          '[edit_file: invalid call, nothing was run — edit #1: new is missing — give "" to delete the old text. You sent: {"path":"a.txt","old":"three"}.' +
            expected,
        );
        assertEquals(
          d,
          '[edit_file: invalid call, nothing was run — edits is missing — send edits: [{"old": "<exact text now in the file>", "new": "<its replacement>"}]. You sent: {"path":"a.txt"}.' +
            expected,
        );
      },
    "dry_run reports the change and writes nothing": async () => {
      const dir = await dirFor("edit-dry");
      const run = await oneStep("edit-dry", [{
        name: "edit_file",
        arguments: {
          path: "main.go",
          edits: [{ old: "count := 1", new: "count := 2" }],
          dry_run: true,
        },
      }], dir);
      assertEquals(run.code, 0, run.stderr);
      assertStringIncludes(
        toolMessages("edit-dry", 1)[0],
        "dry run of main.go, nothing was written: 1 edit would apply, 1 line added, 1 deleted, first change at line 4\n",
      );
      assertEquals(await Deno.readTextFile(`${dir}/main.go`), GO);
      assertStringIncludes(run.stderr, "📝 edit_file: main.go (dry run)\n");
    },
    "yolo: false: refused in -p, with the permission layer's text": async () => {
      const dir = await dirFor("edit-careful", "yolo: false\n");
      const run = await oneStep("edit-careful", [{
        name: "edit_file",
        arguments: { path: "main.go", edits: [{ old: "count := 1", new: "count := 2" }] },
      }], dir);
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolMessages("edit-careful", 1), ["[edit_file rejected by the user]"]);
      assertEquals(await Deno.readTextFile(`${dir}/main.go`), GO);
      // A dry run writes nothing, so it does not ask: it answers even in -p.
      const edits = [{ old: "count := 1", new: "count := 2" }];
      const dry = await oneStep(
        "careful-dry",
        [{
          name: "edit_file",
          arguments: { path: "main.go", edits, dry_run: true },
        }],
        dir,
        ["--model", "careful-dry"],
      );
      assertEquals(dry.code, 0, dry.stderr);
      assertStringIncludes(
        toolMessages("careful-dry", 1)[0],
        "dry run of main.go, nothing was written",
      );
      assertEquals(await Deno.readTextFile(`${dir}/main.go`), GO);
    },
    "a CRLF file keeps its line endings": async () => {
      const dir = await dirFor("edit-crlf", "", { "win.txt": "one\r\ntwo\r\n" });
      const run = await oneStep("edit-crlf", [{
        name: "edit_file",
        arguments: { path: "win.txt", edits: [{ old: "one\ntwo\n", new: "one\n2\nthree\n" }] },
      }], dir);
      assertEquals(run.code, 0, run.stderr);
      assertEquals(await Deno.readTextFile(`${dir}/win.txt`), "one\r\n2\r\nthree\r\n");
    },
    "--json: kind edit, and the result carries old and new text": async () => {
      const dir = await dirFor("edit-json");
      const run = await oneStep(
        "edit-json",
        [{
          name: "edit_file",
          arguments: { path: "main.go", edits: [{ old: "count := 1", new: "count := 2" }] },
        }],
        dir,
        ["--json"],
      );
      assertEquals(run.code, 0, run.stderr);
      const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
      const call = events.find((e) => e.type === "tool_call");
      assertEquals([call.name, call.kind, call.emoji, call.summary], [
        "edit_file",
        "edit",
        "📝",
        "main.go",
      ]);
      const result = events.find((e) => e.type === "tool_result");
      assertEquals(result.failed, false);
      assertEquals(result.diff, {
        path: `${await Deno.realPath(dir)}/main.go`,
        oldText: GO,
        newText: GO.replace("count := 1", "count := 2"),
      });
    },
    "the loop detector: a failing edit repeated is flagged at the 3rd, stopped at the 6th":
      async () => {
        const call = {
          toolCalls: [{
            name: "edit_file",
            arguments: { path: "main.go", edits: [{ old: "count := 9", new: "count := 2" }] },
          }],
        };
        server.script("edit-looper", Array.from({ length: 7 }, () => call));
        const dir = await dirFor("edit-looper");
        const run = await runMM(["-p", "x"], { cwd: dir });
        assertEquals(run.code, 1);
        assertEquals(server.chats("edit-looper").length, 6);
        const outputs = [1, 2, 3, 4, 5].map((n) => toolMessages("edit-looper", n).at(-1)!);
        const refusal = outputs[0];
        assertStringIncludes(refusal, "main.go: edit #1: old text not found");
        assertEquals(outputs[1], refusal);
        assertEquals(outputs[2], `${refusal}\n${LOOP_DETECTED}`);
        assertEquals(outputs[4], `${refusal}\n${LOOP_DETECTED}`);
        assertStringIncludes(run.stderr, `${loopStoppedText("edit_file")}\n`);
        assertEquals(await Deno.readTextFile(`${dir}/main.go`), GO);
      },
    "the near-miss corpus in one turn: every case applied or refused as it must be, no wrong edit":
      async () => {
        const dir = await dirFor("edit-corpus", "contextSize: 4000000\n", {});
        const paths = CORPUS.map((c, i) => `cases/${String(i).padStart(3, "0")}/${c.path}`);
        for (const [i, c] of CORPUS.entries()) {
          await Deno.mkdir(dirname(`${dir}/${paths[i]}`), { recursive: true });
          await Deno.writeTextFile(`${dir}/${paths[i]}`, c.file);
        }
        const calls = CORPUS.map((c, i) => ({
          name: "edit_file",
          arguments: { path: paths[i], edits: c.edits },
        }));
        const run = await oneStep("edit-corpus", calls, dir);
        assertEquals(run.code, 0, run.stderr);
        // A contextSize makes mm speak Ollama's native chat (to send num_ctx): read either.
        const chats = [...server.chats("edit-corpus"), ...server.nativeChats("edit-corpus")];
        assertEquals(chats.length, 2);
        const outputs: string[] = chats[1].body.messages
          .filter((m: { role: string }) => m.role === "tool")
          .map((m: { content: string }) => m.content);
        assertEquals(outputs.length, CORPUS.length);
        const faults: string[] = [];
        for (const [i, c] of CORPUS.entries()) {
          const bytes = await Deno.readFile(`${dir}/${paths[i]}`);
          const after = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
          const fault = corpusFault(c, paths[i], after, outputs[i]);
          if (fault) faults.push(`${c.category}: ${c.name}: ${fault}\n${outputs[i]}`);
        }
        assertEquals(faults, []);
        assertStringIncludes(run.stderr, `📝 ${CORPUS.length} file op(s)`);
      },
  });
  await server.close();
});

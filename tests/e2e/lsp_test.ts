/** The lsp tool through the real `mm -p`, with `deno lsp` as the language server. */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { groupGone, processesIn, TS_FILES } from "../helpers/lsp/fixtures.ts";

const server = ScriptedServer.start();

const DENO_LSP = [
  "lsp:",
  "  servers:",
  "    - name: deno",
  "      command: deno",
  "      args: [lsp]",
  "      extensions: [.ts]",
  "      initializationOptions: {enable: true}",
  "",
].join("\n");

/** A project with the TypeScript fixture, an agent file for `model` with `extra`. */
async function dirFor(model: string, extra = DENO_LSP): Promise<string> {
  const dir = await Deno.realPath(await workdir(`url: ${server.url}\nmodel: ${model}\n${extra}`));
  for (const [name, text] of Object.entries(TS_FILES)) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  return dir;
}

/** The tool messages mm sent back in the `n`th chat request for `model`. */
// deno-lint-ignore no-explicit-any
function toolMessages(model: string, n: number): any[] {
  // deno-lint-ignore no-explicit-any
  return server.chats(model)[n].body.messages.filter((m: any) => m.role === "tool");
}

/** Resolves once `model` has received `n` chat requests. */
async function requests(model: string, n: number): Promise<void> {
  while (server.chats(model).length < n) await new Promise((r) => setTimeout(r, 20));
}

Deno.test("lsp through mm -p", async (t) => {
  await runCases(t, {
    "definition, references and rename with deno lsp; no server left when mm exits": async () => {
      server.script("lsp-deno", [
        {
          toolCalls: [
            { name: "lsp", arguments: { action: "definition", path: "main.ts", symbol: "greet" } },
            { name: "lsp", arguments: { action: "references", path: "main.ts", symbol: "greet" } },
            {
              name: "lsp",
              arguments: { action: "rename", path: "main.ts", symbol: "greet", new_name: "hello" },
            },
          ],
        },
        // Time to look at the process table while the server runs.
        { text: "Renamed.", delay: 500 },
      ]);
      const dir = await dirFor("lsp-deno");
      let mm = 0;
      const running = runMM(["-p", "rename greet"], {
        cwd: dir,
        started: (c) => mm = c.pid,
      });
      await requests("lsp-deno", 2);
      const servers = (await processesIn(dir)).filter((pid) => pid !== mm);
      const run = await running;
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.stdout, "Renamed.\n");
      assertEquals(servers.length > 0, true, "deno lsp ran in the project");
      for (const pid of servers) assertEquals(await groupGone(pid), [], `server ${pid} is gone`);

      const definition = "main.ts:4:17  export function greet(name: string): string {";
      assertStringIncludes(run.stderr, `🔎 lsp: definition main.ts greet\n   ${definition}\n`);
      assertStringIncludes(run.stderr, "🔎 lsp: references main.ts greet\n   3 reference(s):\n");
      assertStringIncludes(
        run.stderr,
        "🔎 lsp: rename main.ts greet → hello\n" +
          "   renamed to hello: 3 edit(s) in 1 file(s)\n   main.ts: 3 edit(s)\n",
      );
      assertStringIncludes(run.stderr, "🔎 3 lsp call(s)");
      const [def, refs, rename] = toolMessages("lsp-deno", 1).map((m) => m.content);
      assertEquals(def, definition);
      assertEquals(
        refs.split("\n")[2],
        'main.ts:8:40  const emoji = "😀😀 漢字"; const message = greet(emoji);',
      );
      assertEquals(rename, "renamed to hello: 3 edit(s) in 1 file(s)\nmain.ts: 3 edit(s)");
      assertEquals(
        await Deno.readTextFile(`${dir}/main.ts`),
        TS_FILES["main.ts"].replaceAll("greet(", "hello("),
      );
      const body = server.chats("lsp-deno")[0].body;
      // deno-lint-ignore no-explicit-any
      const lsp = body.tools.find((t: any) => t.function.name === "lsp");
      assertStringIncludes(lsp.function.description, "Servers available: deno (.ts).");
    },

    "a server missing from the PATH: the warning, and no lsp tool": async () => {
      server.script("lsp-missing", [{ text: "No tools needed." }]);
      const extra = DENO_LSP.replace("command: deno", "command: no-such-language-server");
      const dir = await dirFor("lsp-missing", extra);
      const run = await runMM(["-p", "hi"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(
        run.stderr,
        "[warning: lsp server deno (no-such-language-server) not found on the PATH — skipped]\n",
      );
      // deno-lint-ignore no-explicit-any
      const names = server.chats("lsp-missing")[0].body.tools.map((t: any) => t.function.name);
      assertEquals(names.includes("lsp"), false);
    },

    "yolo: false: a rename is rejected in one-shot mode, nothing changes": async () => {
      server.script("lsp-ask", [
        {
          toolCalls: [{
            name: "lsp",
            arguments: { action: "rename", path: "main.ts", symbol: "greet", new_name: "hi" },
          }],
        },
        { text: "Could not rename." },
      ]);
      const dir = await dirFor("lsp-ask", `yolo: false\n${DENO_LSP}`);
      const run = await runMM(["-p", "rename"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolMessages("lsp-ask", 1)[0].content, "[rename rejected by the user]");
      assertEquals(await Deno.readTextFile(`${dir}/main.ts`), TS_FILES["main.ts"]);
    },

    "Ctrl-C while a server runs: exit code 130, the server stopped": async () => {
      server.script("lsp-interrupt", [
        { toolCalls: [{ name: "lsp", arguments: { action: "symbols", path: "main.ts" } }] },
        { hang: true },
      ]);
      const dir = await dirFor("lsp-interrupt");
      let child: Deno.ChildProcess | undefined;
      const running = runMM(["-p", "outline"], {
        cwd: dir,
        started: (c) => child = c,
      });
      await requests("lsp-interrupt", 2);
      const servers = (await processesIn(dir)).filter((pid) => pid !== child!.pid);
      assertEquals(servers.length > 0, true, "deno lsp ran in the project");
      child!.kill("SIGINT");
      const run = await running;
      assertEquals(run.code, 130, run.stderr);
      assertStringIncludes(run.stderr, "🔎 lsp: symbols main.ts\n   function greet  line 4\n");
      for (const pid of servers) assertEquals(await groupGone(pid), [], `server ${pid} is gone`);
    },
  });
  await server.close();
});

/**
 * Newcomer friction (issue 17), through the real `mm`: `mm init` honours `--provider`, `--url`
 * and `--model`, and refuses the flags it would ignore; a misspelt subcommand names the nearest.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, tempDir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

Deno.test("newcomer friction", async (t) => {
  await runCases(t, {
    "mm init --provider llamacpp --url: that server is probed and written": async () => {
      const dir = await tempDir();
      const run = await runMM(["init", "--provider", "llamacpp", "--url", server.url], {
        cwd: dir,
      });
      assertEquals(run.code, 0, run.stderr);
      assertStringIncludes(run.stdout, `found llamacpp at ${server.url} with 1 model(s)\n`);
      const file = await Deno.readTextFile(`${dir}/mm.yaml`);
      assertStringIncludes(file, "\nprovider: llamacpp # ");
      assertStringIncludes(file, `\nurl: ${server.url}\n`);
      assertStringIncludes(file, "\nmodel: scripted\n");
    },
    "mm init --url alone: the server there, as the first provider whose API answers": async () => {
      const dir = await tempDir();
      const run = await runMM(["init", "--url", `${server.url}/`], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const file = await Deno.readTextFile(`${dir}/mm.yaml`);
      assertStringIncludes(file, `\nurl: ${server.url}\n`);
    },
    "a named server that does not answer is still the one written, with --model": async () => {
      const dir = await tempDir();
      const run = await runMM(
        ["init", "--provider", "llamacpp", "--url", "http://127.0.0.1:1", "--model", "qwen3"],
        { cwd: dir },
      );
      assertEquals(run.code, 0, run.stderr);
      assertEquals(
        run.stdout,
        `no llamacpp server answered at http://127.0.0.1:1\nwrote ${dir}/mm.yaml for llamacpp at http://127.0.0.1:1 — start the server, then run mm doctor\n`,
      );
      const file = await Deno.readTextFile(`${dir}/mm.yaml`);
      assertStringIncludes(file, "\nprovider: llamacpp # ");
      assertStringIncludes(file, "\nurl: http://127.0.0.1:1\n");
      assertStringIncludes(file, "\nmodel: qwen3\n");
    },
    "mm init --url with credentials: in url: alone, never in a comment or on stdout": async () => {
      const dir = await tempDir();
      const url = `http://bob:p%40ssWORD12345@127.0.0.1:${new URL(server.url).port}`;
      for (const found of [true, false]) {
        const at = found ? url : "http://bob:p%40ssWORD12345@127.0.0.1:1";
        await Deno.remove(`${dir}/mm.yaml`).catch(() => {});
        const run = await runMM(["init", "--provider", "llamacpp", "--url", at], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(run.stdout.includes("p%40ssWORD12345"), false, run.stdout);
        const file = await Deno.readTextFile(`${dir}/mm.yaml`);
        assertStringIncludes(file, `\nurl: ${at}\n`);
        const others = file.split("\n").filter((l) => !l.startsWith("url: "));
        assertEquals(others.filter((l) => l.includes("p%40ssWORD12345")), []);
        assertStringIncludes(file, "http://***@127.0.0.1:");
      }
    },
    "mm init refuses the flags it would ignore, and a provider it does not know": async () => {
      const dir = await tempDir();
      for (
        const [args, text] of [
          [["init", "--yolo"], "mm init takes --provider, --url and --model only, not --yolo"],
          [["init", "-c", "x.yaml"], "mm init takes --provider, --url and --model only, not -c"],
          [["init", "--provider", "olama"], '--provider: "olama" is not one of ollama, llamacpp'],
          [["init", "--url", "localhost:11434"], '--url: "localhost:11434" is not an http://'],
        ] as const
      ) {
        const run = await runMM([...args], { cwd: dir });
        assertEquals(run.code, 2, args.join(" "));
        assertStringIncludes(run.stderr, text);
      }
      assertEquals([...Deno.readDirSync(dir)].map((e) => e.name).includes("mm.yaml"), false);
    },
    "mm docter names the nearest subcommand": async () => {
      const dir = await tempDir();
      for (
        const [typed, meant] of [["docter", "doctor"], ["int", "init"], ["sesions", "sessions"]]
      ) {
        const run = await runMM([typed], { cwd: dir });
        assertEquals(run.code, 2);
        assertEquals(
          run.stderr,
          `mm: unknown command "${typed}" (did you mean mm ${meant}?) — run mm --help for the flags\n`,
        );
      }
      // A prompt is not a command: piped, it still runs (here: no server, a clear failure).
      const prompt = await runMM(["-p", "docter"], { cwd: dir, env: { MM_CONFIG: "/nowhere" } });
      assertEquals(prompt.stderr.includes("unknown command"), false);
    },
  });
  await server.close();
});

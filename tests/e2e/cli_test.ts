/** The real `mm` process on bad command lines, bad agent files, --help and --version. */

import { VERSION } from "../../lib/version.ts";
import { assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, workdir } from "../helpers/mm.ts";

/** Asserts a usage or configuration error: one line on stderr, nothing on stdout, exit 2. */
function assertUsage(run: { code: number; stdout: string; stderr: string }, line: string) {
  assertEquals(run.code, 2, run.stderr);
  assertEquals(run.stdout, "");
  assertEquals(run.stderr, `mm: ${line}\n`);
}

Deno.test("the command line", async (t) => {
  const dir = await workdir("model: m\n");
  await runCases(t, {
    "--version and -v": async () => {
      for (const flag of ["--version", "-v", "-version"]) {
        const run = await runMM([flag], { cwd: dir });
        assertEquals(run.code, 0);
        // The version, the commit (`dev` outside a compiled binary) and the target.
        assertMatch(
          run.stdout,
          new RegExp(
            `^mm ${
              VERSION.replaceAll(".", "\\.")
            } \\((dev|[0-9a-f]{7,40}), ${Deno.build.target}\\)\\n$`,
          ),
        );
      }
    },
    "--help and -h list every flag": async () => {
      for (const flag of ["--help", "-h"]) {
        const run = await runMM([flag], { cwd: dir });
        assertEquals(run.code, 0);
        for (
          const f of ["--prompt", "--tui", "--acp", "--config", "--yolo", "--json", "--session"]
        ) {
          assertStringIncludes(run.stdout, f);
        }
      }
    },
    "an unknown flag": async () => {
      assertUsage(
        await runMM(["--promt", "hi"], { cwd: dir }),
        "unknown flag --promt (did you mean --prompt?) — run mm --help for the flags",
      );
    },
    "a missing value": async () => {
      assertUsage(
        await runMM(["-p", "hi", "--model"], { cwd: dir }),
        "--model needs a value (MODEL) — run mm --help for the flags",
      );
    },
    "a bad --provider and a bad --url": async () => {
      assertUsage(
        await runMM(["-p", "hi", "--provider", "olama"], { cwd: dir }),
        '--provider "olama" is not one of ollama, llamacpp, lmstudio, vllm, dmr, llmman, openai (did you mean ollama?) — run mm --help for the flags',
      );
      assertUsage(
        await runMM(["-p", "hi", "--url", "localhost:11434"], { cwd: dir }),
        '--url "localhost:11434" is not an http(s) URL — run mm --help for the flags',
      );
    },
    "a stray argument after -p": async () => {
      assertUsage(
        await runMM(["-p", "fix", "it"], { cwd: dir }),
        'unexpected argument "it" (quote the whole prompt: mm -p "…") — run mm --help for the flags',
      );
    },
    "an empty prompt": async () => {
      assertUsage(
        await runMM(["-p", "-"], { cwd: dir, stdin: "  \n" }),
        "the prompt is empty — run mm --help for the flags",
      );
    },
    "-tui without a terminal, or with TERM=dumb, is a usage error (exit 2)": async () => {
      const usage =
        "-tui needs a terminal: stdin and stdout must be a terminal, and TERM not dumb (mm -p runs a prompt without one) — run mm --help for the flags";
      assertUsage(await runMM(["-tui"], { cwd: dir }), usage);
      assertUsage(await runMM(["--tui"], { cwd: dir, env: { TERM: "dumb" } }), usage);
      assertUsage(
        await runMM(["-tui", "-p", "hi"], { cwd: dir }),
        '-tui takes no prompt: type it in the window (to run one: mm -p "…") — run mm --help for the flags',
      );
    },
    "a bad agent file stops mm before any request, with file:line:column": async () => {
      const bad = await workdir("model: m\nyolo: nope\n");
      const run = await runMM(["-p", "hi"], { cwd: bad });
      assertEquals(run.code, 2);
      assertEquals(run.stdout, "");
      assertMatch(run.stderr, /^mm: .*mm\.yaml:2:7: yolo: expected true or false, found "nope"\n$/);
    },
    "a misspelt yolo is an error, never ignored": async () => {
      const bad = await workdir("model: m\nyollo: false\n");
      const run = await runMM(["-p", "hi"], { cwd: bad });
      assertEquals(run.code, 2);
      assertMatch(run.stderr, /mm\.yaml:2:1: unknown key "yollo" — did you mean "yolo"\?\n$/);
    },
    "a systemFile that cannot be read is a configuration error": async () => {
      const bad = await workdir("model: m\nsystemFile: prompts/missing.md\n");
      const run = await runMM(["-p", "hi"], { cwd: bad });
      assertEquals(run.code, 2);
      // Checked with the rest of the file, at its key's position, before any request.
      assertMatch(
        run.stderr,
        /^mm: .*mm\.yaml:2:13: systemFile: .*prompts\/missing\.md cannot be read \(no such file\)\n$/,
      );
      const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const url = `http://127.0.0.1:${listener.addr.port}`;
      let requests = 0;
      const accepting = (async () => {
        for await (const conn of listener) {
          requests++;
          conn.close();
        }
      })();
      const dirOnServer = await workdir(`url: ${url}\nmodel: m\nsystemFile: gone.md\n`);
      for (const args of [["-p", "hi"], ["doctor"]]) {
        const again = await runMM(args, { cwd: dirOnServer });
        assertEquals(again.code, args[0] === "doctor" ? 1 : 2, again.stderr);
        assertStringIncludes(again.stdout + again.stderr, "mm.yaml:3:13: systemFile: ");
      }
      listener.close();
      await accepting.catch(() => {});
      assertEquals(requests, 0, "no request reached the server");
    },
    "a systemFile over 1 MiB is a configuration error; mm doctor says ✘": async () => {
      const big = await workdir("model: m\nurl: http://127.0.0.1:9\nsystemFile: huge.md\n");
      // 3 GB that take no disk (a sparse file): it is refused by its size, never read.
      await Deno.writeTextFile(`${big}/huge.md`, "");
      await Deno.truncate(`${big}/huge.md`, 3 * 1024 ** 3);
      const run = await runMM(["-p", "hi"], { cwd: big });
      assertUsage(
        run,
        `${big}/mm.yaml:3:13: systemFile: ${big}/huge.md cannot be read (it is larger than the 1 MiB limit)`,
      );
      const doctor = await runMM(["doctor"], { cwd: big });
      assertEquals(doctor.code, 1, doctor.stderr);
      assertEquals(doctor.stdout.includes("✔"), false, doctor.stdout);
      assertStringIncludes(
        doctor.stdout,
        `✘ agent file: ${big}/mm.yaml:3:13: systemFile: ${big}/huge.md cannot be read (it is larger than the 1 MiB limit)`,
      );
    },
    "-c names the agent file; a missing one is an error": async () => {
      const run = await runMM(["-p", "hi", "-c", "nowhere.yaml"], { cwd: dir });
      assertEquals(run.code, 2);
      assertStringIncludes(run.stderr, "nowhere.yaml");
      assertEquals(run.stderr.split("\n").length, 2, run.stderr);
    },
  });
});

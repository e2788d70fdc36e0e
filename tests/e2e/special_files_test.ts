/**
 * Files that are not files, through the real `mm -p` and line mode: a named pipe, a device, a
 * socket get one sentence at once; a device is never read to the end; a huge query word is no
 * crash (issue 17).
 */

import { SYSTEM_PATH_REASON } from "../../lib/files.ts";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { type MMRun, runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { Terminal } from "../helpers/tmux.ts";

const server = ScriptedServer.start();

/** A working directory whose agent file points at the scripted server with `model`. */
function dirFor(model: string, extra = ""): Promise<string> {
  return workdir(`url: ${server.url}\nmodel: ${model}\n${extra}`);
}

/** `mm -p` in `cwd`, killed after 30 s so that a hang fails the test instead of stalling it. */
async function bounded(args: string[], cwd: string): Promise<MMRun> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await runMM(args, {
      cwd,
      started: (child) => timer = setTimeout(() => child.kill("SIGKILL"), 30_000),
    });
  } finally {
    clearTimeout(timer);
  }
}

/** Makes a named pipe at `path`. */
async function mkfifo(path: string): Promise<void> {
  const out = await new Deno.Command("mkfifo", { args: [path] }).output();
  if (!out.success) throw new Error(`mkfifo ${path} failed`);
}

Deno.test("files that are not files", async (t) => {
  await runCases(t, {
    "read_file, write_file and edit_file on a named pipe answer at once, and nothing hangs":
      async () => {
        const dir = await dirFor("fifo");
        await mkfifo(`${dir}/pipe`);
        server.script("fifo", [
          {
            toolCalls: [
              { name: "read_file", arguments: { path: "pipe" } },
              { name: "write_file", arguments: { path: "pipe", content: "x" } },
              { name: "edit_file", arguments: { path: "pipe", edits: [{ old: "a", new: "b" }] } },
            ],
          },
          { text: "done" },
        ]);
        const run = await bounded(["-p", "go"], dir);
        assertEquals(run.code, 0, run.stderr);
        assertEquals(server.toolOutputs("fifo"), [
          "pipe is a named pipe, not a file",
          "pipe is a named pipe, not a file",
          "pipe is a named pipe, not a file",
        ]);
        // The pipe is still a pipe: write_file did not replace it.
        assertEquals((await Deno.stat(`${dir}/pipe`)).isFifo, true);
      },
    "read_file and edit_file on /dev/zero and /dev/urandom are refused, never read; /proc points to bash":
      async () => {
        server.script("device", [
          {
            toolCalls: [
              { name: "read_file", arguments: { path: "/dev/zero" } },
              {
                name: "edit_file",
                arguments: { path: "/dev/urandom", edits: [{ old: "a", new: "" }] },
              },
              { name: "write_file", arguments: { path: "/dev/null", content: "x" } },
              { name: "read_file", arguments: { path: "/proc/cpuinfo" } },
            ],
          },
          { text: "done" },
        ]);
        const run = await bounded(["-p", "go"], await dirFor("device"));
        assertEquals(run.code, 0, run.stderr);
        assertEquals(server.toolOutputs("device"), [
          "/dev/zero is a character device, not a file",
          "/dev/urandom is a character device, not a file",
          "/dev/null is a character device, not a file",
          // Deno opens /proc only with --allow-all: the model is told what can read it.
          `cannot read /proc/cpuinfo: ${SYSTEM_PATH_REASON} — read it with bash (cat, head, ls) instead`,
        ]);
      },
    "read_file on a socket is refused": async () => {
      const dir = await dirFor("socket");
      const listener = Deno.listen({ transport: "unix", path: `${dir}/sock` });
      try {
        server.script("socket", [
          { toolCalls: [{ name: "read_file", arguments: { path: "sock" } }] },
          { text: "done" },
        ]);
        const run = await bounded(["-p", "go"], dir);
        assertEquals(run.code, 0, run.stderr);
        assertEquals(server.toolOutputs("socket"), ["sock is a socket, not a file"]);
      } finally {
        listener.close();
      }
    },
    "a symbolic link to a named pipe is a named pipe": async () => {
      const dir = await dirFor("fifo-link");
      await mkfifo(`${dir}/pipe`);
      await Deno.symlink(`${dir}/pipe`, `${dir}/link`);
      server.script("fifo-link", [
        { toolCalls: [{ name: "read_file", arguments: { path: "link" } }] },
        { text: "done" },
      ]);
      const run = await bounded(["-p", "go"], dir);
      assertEquals(run.code, 0, run.stderr);
      assertEquals(server.toolOutputs("fifo-link"), ["link is a named pipe, not a file"]);
    },
    "an AGENTS.md that is a named pipe or too large: a warning, and the turn runs without it":
      async () => {
        const fifo = await dirFor("agents-md");
        await mkfifo(`${fifo}/AGENTS.md`);
        const large = await dirFor("agents-md");
        await Deno.writeTextFile(`${large}/AGENTS.md`, "x".repeat(1024 * 1024) + "tail");
        const fits = await dirFor("agents-md");
        await Deno.writeTextFile(`${fits}/AGENTS.md`, "Use tabs.\n");
        for (
          const [dir, reason] of [
            [fifo, "it is a named pipe, not a file"],
            [large, "it is larger than the 1 MiB limit"],
            [fits, undefined],
          ]
        ) {
          server.script("agents-md", [{ text: "done" }]);
          const run = await bounded(["-p", "go"], dir!);
          assertEquals(run.code, 0, run.stderr);
          const system = server.chats("agents-md").at(-1)!.body.messages[0].content;
          if (reason === undefined) {
            assertEquals(run.stderr, "");
            assertStringIncludes(system, "Use tabs.");
            continue;
          }
          assertEquals(
            run.stderr,
            `[warning: ${dir}/AGENTS.md cannot be read (${reason}) — it is not added to the system prompt]\n`,
          );
          assertEquals(system.includes("xxxx"), false);
        }
      },
    "search_memory with a word of 30,000 characters searches, never crashes": async () => {
      const dir = await dirFor(
        "long-word",
        "sessions:\n  enabled: true\n  autoSearchMemory: true\n",
      );
      // A session that is not all ASCII: the matcher then builds its patterns.
      server.script("long-word", [{ text: "un café noir" }]);
      assertEquals((await bounded(["-p", "a coffee?"], dir)).code, 0);
      server.script("long-word", [
        { toolCalls: [{ name: "search_memory", arguments: { query: "a".repeat(30_000) } }] },
        { text: "done" },
      ]);
      const run = await bounded(["-p", "go"], dir);
      assertEquals(run.code, 0, run.stderr);
      const [output] = server.toolOutputs("long-word");
      assertStringIncludes(output, "🔎 no hit for");
      assertEquals(output.includes("failed unexpectedly"), false, output.slice(0, 300));
    },
  });
});

Deno.test("line mode: read_file on a named pipe answers at once", async () => {
  const dir = await dirFor("fifo-line");
  await mkfifo(`${dir}/pipe`);
  server.script("fifo-line", [
    { toolCalls: [{ name: "read_file", arguments: { path: "pipe" } }] },
    { text: "It is a pipe." },
  ]);
  const term = await Terminal.mm(dir);
  try {
    await term.waitFor("Ctrl-D quits.");
    await term.type("read the pipe");
    await term.keys("Enter");
    const screen = await term.waitFor("It is a pipe.");
    assertStringIncludes(screen, "📝 read_file: pipe\n   pipe is a named pipe, not a file\n");
  } finally {
    await term.kill();
  }
  await server.close();
});

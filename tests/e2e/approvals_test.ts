/**
 * Approvals that show the truth (issue 24), through the real `mm`: a path that would disguise where
 * a call goes is refused before anything asks, a prompt names where a path really leads (line
 * mode, window mode, the editor), a long command keeps its head in view, a file changed after its
 * preview is not overwritten, no tool output carries mm's secrets, and reads outside the project
 * and fetches ask.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { Editor, select } from "../helpers/acp.ts";
import { DENO_DIR, exists, MAIN, runMM, tempDir, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { boxTakesKeys, Terminal } from "../helpers/tmux.ts";

const server = ScriptedServer.start();

/** The path of the issue: a file name, then lines that look like a diff, then a way out. */
const DISGUISED = "notes.txt\n@@ -0,0 +1,2 @@\n+harmless line\n+/../../../OUT.txt";

/** Starts mm (line mode, or `-tui`) in a terminal in `dir`, once its banner is drawn. */
async function terminal(dir: string, args: string[] = [], height = 40): Promise<Terminal> {
  const term = await Terminal.start(
    [Deno.execPath(), "run", "--allow-all", "--no-config", "--quiet", MAIN, ...args],
    { cwd: dir, env: { HOME: dir, NO_COLOR: "1", DENO_DIR }, width: 100, height },
  );
  await term.waitFor("Ctrl-D quits.");
  return term;
}

/** Types `text` and Enter. */
async function send(term: Terminal, text: string): Promise<void> {
  await term.type(text);
  await term.keys("Enter");
}

/** A project in which `link` is a symbolic link to a directory outside it; both real paths. */
async function linkedProject(model: string, extra = "yolo: false\n") {
  const dir = await workdir(`url: ${server.url}\nmodel: ${model}\n${extra}`);
  const outside = await Deno.realPath(await tempDir("mm-outside-"));
  await Deno.symlink(outside, `${dir}/link`);
  return { dir, outside };
}

/** The write of the symlink cases: through `link` to the directory outside. */
const WRITE_THROUGH_LINK = {
  toolCalls: [{ name: "write_file", arguments: { path: "link/x.txt", content: "hi\n" } }],
};

Deno.test("a path that would disguise where a call goes", async (t) => {
  await runCases(t, {
    "mm -p: a path with a line break or U+2028 is an invalid call; nothing is written":
      async () => {
        const dir = await workdir(`url: ${server.url}\nmodel: ap-disguise\n`);
        server.script("ap-disguise", [
          {
            toolCalls: [
              { name: "write_file", arguments: { path: DISGUISED, content: "x" } },
              {
                name: "write_file",
                arguments: { path: DISGUISED.replaceAll("\n", "\u2028"), content: "x" },
              },
              { name: "read_file", arguments: { path: "mm.yaml\r" } },
            ],
          },
          { text: "done" },
        ]);
        const run = await runMM(["-p", "go"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        const [nl, ls, cr] = server.toolOutputs("ap-disguise");
        assertStringIncludes(
          nl,
          "[write_file: invalid call, nothing was run — path holds a line break or a control character (U+000A), which a file path may not hold.",
        );
        assertStringIncludes(ls, "(U+2028), which a file path may not hold.");
        assertStringIncludes(cr, "[read_file: invalid call, nothing was run — path holds");
        assertEquals(await exists(`${dir}/OUT.txt`), false);
        assertEquals(await exists(`${dir}/a/OUT.txt`), false);
      },
    "line mode: refused before any prompt, nothing asked": async () => {
      const dir = await workdir(`url: ${server.url}\nmodel: ap-disguise-line\nyolo: false\n`);
      server.script("ap-disguise-line", [
        { toolCalls: [{ name: "write_file", arguments: { path: DISGUISED, content: "x" } }] },
        { text: "it was refused" },
      ]);
      const term = await terminal(dir);
      try {
        await send(term, "go");
        const screen = await term.waitFor("it was refused");
        assertEquals(screen.includes("🔐"), false, screen);
        assertEquals(screen.includes("allow?"), false, screen);
        assertStringIncludes(
          server.toolOutputs("ap-disguise-line")[0],
          "invalid call, nothing was run — path holds a line break",
        );
      } finally {
        await term.kill();
      }
    },
  });
});

Deno.test("a prompt names where a path really leads", async (t) => {
  await runCases(t, {
    "line mode: the 🔐 line names the link's target outside the project": async () => {
      const { dir, outside } = await linkedProject("ap-link-line");
      server.script("ap-link-line", [WRITE_THROUGH_LINK, { text: "left alone" }]);
      const term = await terminal(dir);
      try {
        await send(term, "go");
        const screen = await term.waitFor("allow?");
        assertStringIncludes(
          screen,
          `🔐 write_file: link/x.txt → ${outside}/x.txt (outside the project)\n`,
        );
        await send(term, "n");
        await term.waitFor("left alone");
        assertEquals(await exists(`${outside}/x.txt`), false);
      } finally {
        await term.kill();
      }
    },
    "window mode: the permission box names the link's target outside the project": async () => {
      const { dir, outside } = await linkedProject("ap-link-window");
      server.script("ap-link-window", [WRITE_THROUGH_LINK, { text: "left alone" }]);
      const term = await terminal(dir, ["-tui"], 30);
      try {
        await send(term, "go");
        const screen = await term.waitFor("╭─ 🔐 allow this call?");
        const box = screen.split("\n").filter((r) => r.startsWith("│"))
          .map((r) => r.replace(/^│ ?|\s*│$/g, "")).join("");
        assertStringIncludes(
          box,
          `write_file: link/x.txt → ${outside}/x.txt (outside the project)`,
        );
        await boxTakesKeys();
        await term.type("n");
        await term.waitFor("left alone");
        assertEquals(await exists(`${outside}/x.txt`), false);
      } finally {
        await term.kill();
      }
    },
    "editor mode: the dialog's title names the link's target outside the project": async () => {
      const { dir, outside } = await linkedProject("ap-link-acp");
      server.script("ap-link-acp", [WRITE_THROUGH_LINK, { text: "left alone" }]);
      const editor = await Editor.start({ cwd: dir, permission: () => select("reject_once") });
      try {
        const session = await editor.newSession(dir);
        assertEquals(await editor.prompt(session, "go"), "end_turn");
        assertEquals(
          editor.permissions[0].toolCall.title,
          `write_file: link/x.txt → ${outside}/x.txt (outside the project)`,
        );
        assertEquals(await exists(`${outside}/x.txt`), false);
      } finally {
        await editor.close();
      }
    },
  });
});

Deno.test("the model never reads a secret mm holds", async (t) => {
  const KEY = "sk-approvals-secret-0123456789";
  await runCases(t, {
    "mm -p: bash reading mm's own environment, and a hook's context, give the model ***":
      async () => {
        const dir = await workdir(
          `url: ${server.url}\nmodel: ap-secret\n` +
            `hooks:\n  postToolCall:\n    - command: ["bash", "-c", ` +
            `"echo '{\\"context\\": \\"key is ${KEY}\\"}'"]\n`,
        );
        server.script("ap-secret", [
          {
            toolCalls: [{
              name: "bash",
              arguments: { command: `tr '\\0' '\\n' < /proc/$PPID/environ | grep '^MM_API_KEY='` },
            }],
          },
          { text: "done" },
        ]);
        const run = await runMM(["-p", "go"], { cwd: dir, env: { MM_API_KEY: KEY } });
        assertEquals(run.code, 0, run.stderr);
        const [out] = server.toolOutputs("ap-secret");
        assertStringIncludes(out, "MM_API_KEY=***\n");
        assertStringIncludes(out, "[context added by a hook]\nkey is ***");
        const request = JSON.stringify(server.chats("ap-secret")[1].body);
        assertEquals(request.includes(KEY), false, request);
      },
  });
});

Deno.test("what was shown is what is applied", async (t) => {
  await runCases(t, {
    "line mode: a file changed while its diff was shown is not overwritten; the model is told":
      async () => {
        const dir = await workdir(`url: ${server.url}\nmodel: ap-changed\nyolo: false\n`);
        await Deno.writeTextFile(`${dir}/a.txt`, "one\nold\n");
        server.script("ap-changed", [
          {
            toolCalls: [{
              name: "write_file",
              arguments: { path: "a.txt", content: "one\nNEW\n" },
            }],
          },
          {
            toolCalls: [{
              name: "edit_file",
              arguments: { path: "a.txt", edits: [{ old: "one", new: "ONE" }] },
            }],
          },
          { text: "told" },
        ]);
        const term = await terminal(dir);
        try {
          await send(term, "go");
          await term.waitFor("🔐 write_file: a.txt");
          await Deno.writeTextFile(`${dir}/a.txt`, "one\nold\nthe user's line\n");
          await send(term, "y");
          await term.waitFor("🔐 edit_file: a.txt");
          await Deno.writeTextFile(`${dir}/a.txt`, "one\nold\nthe user's line\nand another\n");
          await send(term, "y");
          await term.waitFor("told");
          assertEquals(
            await Deno.readTextFile(`${dir}/a.txt`),
            "one\nold\nthe user's line\nand another\n",
          );
          const changed =
            "a.txt changed after its change was shown for approval — nothing was written; read it again and redo the change";
          assertEquals(server.toolOutputs("ap-changed"), [changed, changed]);
        } finally {
          await term.kill();
        }
      },
  });
});

Deno.test("line mode: a long command keeps its head in view when allow? is asked", async () => {
  const comments = Array.from({ length: 120 }, (_, i) => `# comment ${i + 1}`);
  const command = ["touch X", ...comments].join("\n");
  const dir = await workdir(`url: ${server.url}\nmodel: ap-long\nyolo: false\n`);
  server.script("ap-long", [
    { toolCalls: [{ name: "bash", arguments: { command } }] },
    { text: "refused" },
  ]);
  const term = await terminal(dir);
  try {
    await send(term, "go");
    let screen = await term.waitFor("allow?");
    assertStringIncludes(screen, "🔐 bash: touch X\n# comment 1\n");
    assertStringIncludes(screen, "# comment 9\n   … 106 more lines …\n# comment 116\n");
    assertStringIncludes(
      screen,
      "# comment 120\n   allow? [y]es · [a]lways for this tool · [v]iew all",
    );
    await send(term, "v");
    // Shown whole, its middle lines too, then asked again.
    screen = await term.waitFor(/# comment 100\n# comment 101\n[^]*# comment 120\n {3}allow\?/);
    assertEquals(screen.includes("more lines"), false, screen);
    await send(term, "n");
    await term.waitFor("refused");
    assertEquals(await exists(`${dir}/X`), false);
  } finally {
    await term.kill();
  }
});

/** Line mode: the real `mm` in a terminal (tmux), typed at, against the scripted server. */

import { assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { cancelledText } from "../../lib/agent/commands.ts";
import { runCases } from "../helpers/cases.ts";
import { DENO_DIR, MAIN, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { Terminal } from "../helpers/tmux.ts";

const server = ScriptedServer.start();

/** Starts `mm` in a terminal, in a fresh directory whose agent file uses `model`. */
async function mm(model: string, extra = "", env: Record<string, string> = {}) {
  const dir = await workdir(`url: ${server.url}\nmodel: ${model}\n${extra}`);
  const term = await Terminal.start(
    [Deno.execPath(), "run", "--allow-all", "--no-config", "--quiet", MAIN],
    { cwd: dir, env: { HOME: dir, NO_COLOR: "1", DENO_DIR, ...env } },
  );
  await term.waitFor("Ctrl-D quits.");
  return { term, dir };
}

/** The roles of the messages of the `n`th chat request for `model`. */
function roles(model: string, n: number): string[] {
  return server.chats(model)[n].body.messages.map((m: { role: string }) => m.role);
}

Deno.test("line mode", async (t) => {
  await runCases(t, {
    "the recap line adds the window's fill, the cache and the speed": async () => {
      server.script("figures", [{
        text: "Done.",
        usage: {
          prompt_tokens: 3000,
          completion_tokens: 100,
          prompt_tokens_details: { cached_tokens: 2820 },
        },
        timings: { cache_n: 2820, predicted_per_second: 41.2 },
      }]);
      const { term } = await mm("figures", "provider: llamacpp\ncontextSize: 8000\n");
      try {
        await term.type("go");
        await term.keys("Enter");
        const screen = await term.waitFor(/tok\/s\n›/);
        assertStringIncludes(screen, "Done.\nctx 3.1k/8k (39%) · cache 94% · 41 tok/s\n›");
      } finally {
        await term.kill();
      }
    },
    "a conversation of several turns, with a tool call, the recap and the banner": async () => {
      server.script("talk", [
        { toolCalls: [{ name: "bash", arguments: { command: "echo from-bash" } }] },
        { text: "It printed from-bash." },
        { text: "Yes, I remember." },
      ]);
      const { term } = await mm("talk");
      try {
        const banner = await term.screen();
        assertMatch(banner, /^mm \d+\.\d+\.\d+ · talk @ ollama \(http:\/\/127\.0\.0\.1:\d+\)\n/);
        assertStringIncludes(banner, "tools: bash, read_file, write_file");
        await term.type("run it");
        await term.keys("Enter");
        // The prompt comes back after the recap: wait for both (under load they are drawn apart).
        // The recap ends with the turn's figures: mm's estimates (`~`), the server counted nothing.
        const screen = await term.waitFor(/⚙ 1 command\(s\) · ctx ~.*\n›/);
        assertStringIncludes(
          screen,
          "› run it\n🛠️  bash: echo from-bash\n   from-bash\nIt printed from-bash.\n⚙ 1 command(s) · ctx ~",
        );
        await term.type("remember?");
        await term.keys("Enter");
        await term.waitFor("Yes, I remember.");
        assertEquals(roles("talk", 2), [
          "system",
          "user",
          "assistant",
          "tool",
          "assistant",
          "user",
        ]);
      } finally {
        await term.kill();
      }
    },
    "a permission granted, refused with a reason, then allowed for the session": async () => {
      const call = (cmd: string) => ({
        toolCalls: [{ name: "bash", arguments: { command: cmd } }],
      });
      server.script("perm", [
        call("echo granted"),
        call("echo refused"),
        { text: "first done" },
        call("echo always-1"),
        call("echo always-2"),
        { text: "second done" },
      ]);
      const { term } = await mm("perm", "yolo: false\n");
      try {
        await term.type("go");
        await term.keys("Enter");
        const asked = await term.waitFor("🔐 bash: echo granted");
        // The 🔐 line stands for the call: its 🛠️ line is not drawn first.
        assertEquals(asked.includes("🛠️  bash: echo granted"), false, asked);
        assertStringIncludes(asked, "› go\n🔐 bash: echo granted");
        await term.type("y");
        await term.keys("Enter");
        const refused = await term.waitFor("🔐 bash: echo refused");
        // After the answer, the result follows as ever.
        assertStringIncludes(refused, "🔐 bash: echo granted\n   allow? ");
        assertStringIncludes(refused, "   granted\n🔐 bash: echo refused");
        await term.type("not that one, please");
        await term.keys("Enter");
        await term.waitFor("first done");
        const tools = server.chats("perm")[2].body.messages.filter((m: { role: string }) =>
          m.role === "tool"
        );
        assertEquals(tools.map((m: { content: string }) => m.content), [
          "granted\n",
          "[command rejected by the user]\nThe user says: not that one, please",
        ]);
        await term.type("again");
        await term.keys("Enter");
        await term.waitFor("🔐 bash: echo always-1");
        await term.type("a");
        await term.keys("Enter");
        const screen = await term.waitFor("second done");
        assertEquals(
          screen.includes("🔐 bash: echo always-2"),
          false,
          "always means no more asking",
        );
        // A call that does not ask keeps its own line.
        assertStringIncludes(screen, "🛠️  bash: echo always-2\n   always-2\n");
      } finally {
        await term.kill();
      }
    },
    "a file change shows its diff above the permission prompt; refused, nothing is written":
      async () => {
        server.script("perm-diff", [
          {
            toolCalls: [{
              name: "write_file",
              arguments: { path: "a.txt", content: "one\nNEW\n" },
            }],
          },
          { text: "left alone" },
        ]);
        const { term, dir } = await mm("perm-diff", "yolo: false\n");
        await Deno.writeTextFile(`${dir}/a.txt`, "one\nold\n");
        try {
          await term.type("change it");
          await term.keys("Enter");
          const screen = await term.waitFor("🔐 write_file: a.txt");
          assertStringIncludes(screen, "    one\n   -old\n   +NEW\n🔐 write_file: a.txt");
          assertEquals(screen.includes("📝 write_file: a.txt"), false, screen);
          await term.type("n");
          await term.keys("Enter");
          await term.waitFor("left alone");
          assertEquals(await Deno.readTextFile(`${dir}/a.txt`), "one\nold\n");
        } finally {
          await term.kill();
        }
      },
    "a line continued with \\ keeps › on its first row, … on the next; a paste shows its lines":
      async () => {
        server.script("cont", [{ text: "got two lines" }, { text: "got a paste" }]);
        const { term } = await mm("cont");
        try {
          await term.type("L1\\");
          await term.keys("Enter");
          await term.type("L2");
          await term.keys("Enter");
          let screen = await term.waitFor("got two lines");
          assertStringIncludes(screen, "› L1\n… L2\n");
          assertEquals(server.chats("cont")[0].body.messages.at(-1).content, "L1\nL2");
          await term.type("\x1b[200~one\ntwo\x1b[201~");
          await term.keys("Enter");
          screen = await term.waitFor("got a paste");
          assertStringIncludes(screen, "› one\n… two\n");
        } finally {
          await term.kill();
        }
      },
    "Esc cancels a running command, and the conversation goes on": async () => {
      server.script("cancel", [
        { toolCalls: [{ name: "bash", arguments: { command: "echo $$ > pid; sleep 30" } }] },
        { text: "still here" },
      ]);
      const { term, dir } = await mm("cancel");
      try {
        await term.type("long job");
        await term.keys("Enter");
        await term.waitFor("🛠️  bash: echo $$ > pid; sleep 30");
        while (!(await exists(`${dir}/pid`))) await new Promise((r) => setTimeout(r, 20));
        await term.keys("Escape");
        const screen = await term.waitFor("⏹ turn cancelled");
        assertStringIncludes(screen, "   [error: cancelled]\n");
        const pid = (await Deno.readTextFile(`${dir}/pid`)).trim();
        assertEquals(await exists(`/proc/${pid}`), false, "the command was killed");
        await term.type("are you there?");
        await term.keys("Enter");
        await term.waitFor("still here");
        const sent = server.chats("cancel")[1].body.messages;
        assertEquals(sent.at(-2).content, "[error: cancelled]");
      } finally {
        await term.kill();
      }
    },
    "/new starts afresh; an unknown command names the nearest; /help lists them": async () => {
      server.script("fresh", [{ text: "one" }, { text: "two" }]);
      const { term } = await mm("fresh");
      try {
        await term.type("first");
        await term.keys("Enter");
        await term.waitFor(/\none\n/);
        await term.type("/nwe");
        await term.keys("Enter");
        await term.waitFor("unknown command /nwe — did you mean /new? (/help lists them)");
        await term.type("/new");
        await term.keys("Enter");
        await term.waitFor("new conversation");
        await term.type("second");
        await term.keys("Enter");
        await term.waitFor(/\ntwo\n/);
        assertEquals(roles("fresh", 1), ["system", "user"]);
        await term.type("/help");
        await term.keys("Enter");
        const screen = await term.waitFor("/quit, /exit");
        for (const c of ["/new", "/compact", "/memory", "/ask", "/abort", "/skip"]) {
          assertStringIncludes(screen, c);
        }
      } finally {
        await term.kill();
      }
    },
    "/ask hands a task to an agent of mmConfigs and prints its answer": async () => {
      server.script("asked-line", [{ text: "the helper's answer" }]);
      const { term, dir } = await mm(
        "asker-line",
        "mmConfigs:\n  helper:\n    file: helper.yaml\n",
      );
      try {
        await Deno.writeTextFile(`${dir}/helper.yaml`, `url: ${server.url}\nmodel: asked-line\n`);
        await term.type("/ask helper do the thing");
        await term.keys("Enter");
        const screen = await term.waitFor("the helper's answer");
        // The helper's file did not exist when mm started: the display has no provider/model.
        assertStringIncludes(screen, "🗣 ask: helper — do the thing\n   the helper's answer\n");
        await term.type("/ask nobody x");
        await term.keys("Enter");
        await term.waitFor('[ask_agent: unknown agent "nobody" — agents: helper]');
        assertEquals(server.chats("asker-line").length, 0);
      } finally {
        await term.kill();
      }
    },
    "/ask runs through the tool hooks: preToolCall can deny it, postToolCall sees its answer":
      async () => {
        server.script("asked-hooked", [{ text: "the hooked answer" }]);
        const hooks = "hooks:\n  preToolCall:\n    - matcher: ask_agent\n" +
          `      command: ["bash", "-c", "grep -q forbidden && { echo 'not this task' >&2; exit 2; }; exit 0"]\n` +
          "  postToolCall:\n    - matcher: ask_agent\n" +
          `      command: ["bash", "-c", "cat > post.json"]\n`;
        const { term, dir } = await mm(
          "asker-hooked",
          `mmConfigs:\n  helper:\n    file: helper.yaml\n${hooks}`,
        );
        try {
          await Deno.writeTextFile(
            `${dir}/helper.yaml`,
            `url: ${server.url}\nmodel: asked-hooked\n`,
          );
          await term.type("/ask helper the forbidden thing");
          await term.keys("Enter");
          await term.waitFor("[ask_agent denied by a hook: not this task]");
          assertEquals(server.chats("asked-hooked").length, 0);
          await term.type("/ask helper an allowed thing");
          await term.keys("Enter");
          await term.waitFor("helper answered (17 characters)");
          const post = JSON.parse(await Deno.readTextFile(`${dir}/post.json`));
          assertEquals([post.event, post.tool, post.output], [
            "postToolCall",
            "ask_agent",
            "the hooked answer",
          ]);
        } finally {
          await term.kill();
        }
      },
    "what is typed while a turn runs waits for the prompt after it": async () => {
      server.script("ahead", [{ text: "slow answer", delay: 1500 }]);
      const { term } = await mm("ahead");
      try {
        await term.type("go");
        await term.keys("Enter");
        await term.waitFor("› go\n");
        // Typed blind while the model is still silent: a command, then the start of a prompt.
        await term.type("/help");
        await term.keys("Enter");
        await term.type("next que");
        const screen = await term.waitFor("› next que");
        assertStringIncludes(screen, "slow answer");
        assertStringIncludes(screen, "Commands:");
      } finally {
        await term.kill();
      }
    },
    "an answer cut at maxTokens says so under it": async () => {
      server.script("cut-line", [{ fixture: "stream-length" }]);
      const { term } = await mm("cut-line", "maxTokens: 2\n");
      try {
        await term.type("say hi");
        await term.keys("Enter");
        const screen = await term.waitFor("[warning: the answer was cut at maxTokens (2)]");
        assertStringIncludes(
          screen,
          "› say hi\n Undroc\n[warning: the answer was cut at maxTokens (2)]",
        );
      } finally {
        await term.kill();
      }
    },
    "a trailing backslash continues the prompt on the next line": async () => {
      server.script("multi", [{ text: "got both lines" }]);
      const { term } = await mm("multi");
      try {
        await term.type("first line \\");
        await term.keys("Enter");
        await term.type("second line");
        await term.keys("Enter");
        await term.waitFor("got both lines");
        assertEquals(
          server.chats("multi")[0].body.messages.at(-1).content,
          "first line \nsecond line",
        );
      } finally {
        await term.kill();
      }
    },
    "the up arrow recalls the previous prompt": async () => {
      server.script("recall", [{ text: "a1" }, { text: "a2" }]);
      const { term } = await mm("recall");
      try {
        await term.type("same question");
        await term.keys("Enter");
        await term.waitFor(/\na1\n/);
        await term.keys("Up", "Enter");
        await term.waitFor(/\na2\n/);
        assertEquals(
          server.chats("recall")[1].body.messages.at(-1).content,
          "same question",
        );
      } finally {
        await term.kill();
      }
    },
    "ask_user: every type answered at the prompt, then /skip": async () => {
      const questions = [
        { question: "Which language?", options: ["Go", "Rust", "Zig"] },
        { question: "Which targets?", type: "checkbox", options: ["linux", "mac", "windows"] },
        { question: "Run the tests?", type: "yesno" },
        { question: "Your name?", type: "text", default: "Ann" },
      ];
      server.script("asker", [
        { toolCalls: [{ name: "ask_user", arguments: { questions } }] },
        { text: "thanks" },
        { toolCalls: [{ name: "ask_user", arguments: { question: "Colour?", type: "text" } }] },
        { text: "fine" },
        { toolCalls: [{ name: "ask_user", arguments: { question: "Colour?", type: "text" } }] },
        { text: "must not be asked for" },
      ]);
      const { term } = await mm("asker");
      try {
        await term.type("ask me");
        await term.keys("Enter");
        await term.waitFor("❓ Which language?");
        const screen = await term.screen();
        assertStringIncludes(
          screen,
          "❓ ask_user: 4 question(s)\n❓ Which language?\n  1. Go\n  2. Rust\n  3. Zig\n",
        );
        await term.type("2");
        await term.keys("Enter");
        await term.waitFor("❓ Which targets?");
        await term.type("1, 3");
        await term.keys("Enter");
        await term.waitFor("❓ Run the tests?");
        await term.type("o");
        await term.keys("Enter");
        await term.waitFor("❓ Your name?");
        await term.keys("Enter");
        await term.waitFor("thanks");
        const [answer] = server.chats("asker")[1].body.messages.filter((m: { role: string }) =>
          m.role === "tool"
        );
        assertEquals(
          answer.content,
          "The user answered:\n- Which language? → Rust\n- Which targets? → linux, windows\n- Run the tests? → yes\n- Your name? → Ann",
        );
        await term.type("again");
        await term.keys("Enter");
        await term.waitFor("❓ Colour?");
        await term.type("/skip");
        await term.keys("Enter");
        await term.waitFor("fine");
        assertEquals(
          server.chats("asker")[3].body.messages.at(-1).content,
          "[the user declined to answer: do not ask the same thing again; go on without it or stop]",
        );
        // Ctrl-C at a question cancels the turn: the model is not asked again.
        await term.type("once more");
        await term.keys("Enter");
        await term.waitFor("❓ Colour?");
        await term.keys("C-c");
        await term.waitFor("⏹ turn cancelled");
        assertEquals(server.chats("asker").length, 5, "no request after the cancel");
      } finally {
        await term.kill();
      }
    },
    "/memory searches earlier conversations, /compact summarises this one": async () => {
      server.script("memo", [
        { text: "The build uses esbuild." },
        { text: "Summary: we talked about the build." },
      ]);
      const { term } = await mm("memo", "sessions:\n  enabled: true\n");
      try {
        await term.type("which bundler?");
        await term.keys("Enter");
        await term.waitFor("The build uses esbuild.");
        await term.type("/new");
        await term.keys("Enter");
        await term.waitFor("new conversation");
        await term.type("/memory ESBUILD");
        await term.keys("Enter");
        const screen = await term.waitFor(/🔎 1 hit\(s\) for "ESBUILD" in /);
        assertStringIncludes(screen, "which bundler?");
        await term.type("/compact");
        await term.keys("Enter");
        await term.waitFor("/compact: there is nothing to compact yet");
      } finally {
        await term.kill();
      }
    },
    "Esc during /compact cancels it: the conversation is as it was, and goes on": async () => {
      server.script("l-compact", [
        { text: "first answer" },
        { text: "a summary that takes its time to come", chunkSize: 1, gap: 200 },
        { text: "still here" },
      ]);
      const { term } = await mm("l-compact");
      try {
        await term.type("hi");
        await term.keys("Enter");
        await term.waitFor("first answer");
        await term.type("/compact");
        await term.keys("Enter");
        // The summary is being asked for: its request has reached the server.
        while (server.chats("l-compact").length < 2) await term.screen();
        await term.keys("Escape");
        await term.waitFor(cancelledText("/compact"));
        await term.type("and now?");
        await term.keys("Enter");
        await term.waitFor("still here");
        // The history was not replaced: the first exchange is still sent.
        assertEquals(roles("l-compact", 2), ["system", "user", "assistant", "user"]);
      } finally {
        await term.kill();
      }
    },
    "--continue draws the last question again, as it was drawn live": async () => {
      server.script("l-resume", [
        { toolCalls: [{ name: "bash", arguments: { command: "echo from-bash" } }] },
        { text: "It printed from-bash." },
      ]);
      const { term, dir } = await mm("l-resume", "sessions:\n  enabled: true\n");
      try {
        await term.type("run it");
        await term.keys("Enter");
        await term.waitFor(/⚙ 1 command\(s\)[^\n]*\n›/);
        await term.keys("C-d");
        await term.waitFor("[exited");
      } finally {
        await term.kill();
      }
      const again = await Terminal.start(
        [Deno.execPath(), "run", "--allow-all", "--no-config", "--quiet", MAIN, "--continue"],
        { cwd: dir, env: { HOME: dir, NO_COLOR: "1", DENO_DIR } },
      );
      try {
        const screen = await again.waitFor("(continuing: 4 earlier message(s))");
        assertStringIncludes(
          screen,
          "› run it\n🛠️  bash: echo from-bash\n   from-bash\nIt printed from-bash.\n(continuing: 4 earlier message(s))",
        );
      } finally {
        await again.kill();
      }
    },
    "colours on a terminal, none with NO_COLOR": async () => {
      const call = { toolCalls: [{ name: "bash", arguments: { command: "echo shaded" } }] };
      server.script("colour", [call, { text: "done" }]);
      server.script("no-colour", [call, { text: "done" }]);
      for (const [model, noColor] of [["colour", ""], ["no-colour", "1"]]) {
        const { term } = await mm(model, "", { NO_COLOR: noColor });
        try {
          await term.type("go");
          await term.keys("Enter");
          await term.waitFor("⚙ 1 command(s)");
          const screen = await term.screenWithEscapes();
          assertStringIncludes(screen, "shaded");
          assertEquals(
            screen.includes("\x1b["),
            noColor === "",
            `escape sequences with NO_COLOR=${JSON.stringify(noColor)}`,
          );
        } finally {
          await term.kill();
        }
      }
    },
    "Ctrl-D quits, and so does Ctrl-C twice; /quit too": async () => {
      for (const keys of [["C-d"], ["C-c", "C-c"]]) {
        const { term } = await mm("quit");
        try {
          for (const k of keys) await term.keys(k);
          await term.waitFor("[exited 0]");
        } finally {
          await term.kill();
        }
      }
      const { term } = await mm("quit");
      try {
        await term.type("/quit");
        await term.keys("Enter");
        await term.waitFor("[exited 0]");
      } finally {
        await term.kill();
      }
    },
  });
  await server.close();
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

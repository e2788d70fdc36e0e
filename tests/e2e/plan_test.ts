/**
 * Plan mode through the real `mm` (issue 25, part 5; docs/security.md, "Plan mode"): `-p --plan`
 * against the scripted server, `/plan` and Shift+Tab in line mode, Shift+Tab on window mode's
 * status line, and editor mode's session modes through the ACP SDK's client.
 */

import { methods } from "npm:@agentclientprotocol/sdk@2.4.0";
import { PLAN_MODE_REFUSED } from "../../lib/permissions/plan.ts";
import { PLAN_MODE_PROMPT } from "../../lib/agent/prompt.ts";
import { Editor } from "../helpers/acp.ts";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { exists, runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { Terminal } from "../helpers/tmux.ts";

const server = ScriptedServer.start();

/** A working directory whose agent file points at the scripted server, yolo. */
function dirFor(model: string): Promise<string> {
  return workdir(`url: ${server.url}\nmodel: ${model}\nyolo: true\n`);
}

/** The system prompt of the `n`th chat request for `model`. */
function systemOf(model: string, n: number): string {
  return server.chats(model).at(n)!.body.messages[0].content;
}

const write = { name: "write_file", arguments: { path: "plan.txt", content: "done\n" } };

Deno.test("mm -p --plan", async (t) => {
  await runCases(t, {
    "a write is refused with the text and writes nothing; ls runs; cat x > y is refused":
      async () => {
        server.script("plan-p", [
          {
            toolCalls: [
              write,
              { name: "bash", arguments: { command: "ls" } },
              { name: "bash", arguments: { command: "cat x > y" } },
            ],
          },
          { text: "the plan: write plan.txt" },
        ]);
        const dir = await dirFor("plan-p");
        await Deno.writeTextFile(`${dir}/x`, "x\n");
        const run = await runMM(["-p", "plan it", "--plan"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertStringIncludes(run.stdout, "the plan: write plan.txt");
        const outputs = server.toolOutputs("plan-p", 1);
        assertEquals(outputs[0], PLAN_MODE_REFUSED);
        assertStringIncludes(outputs[1], "mm.yaml");
        assertEquals(outputs[2], PLAN_MODE_REFUSED);
        assertEquals([await exists(`${dir}/plan.txt`), await exists(`${dir}/y`)], [false, false]);
        assertStringIncludes(systemOf("plan-p", 0), PLAN_MODE_PROMPT);
      },
    "options bash writes into a word (braces, $'…', ${…}, $(…), backquotes) are refused":
      async () => {
        const lines = [
          "find . -name x1 -{delete,print}",
          "find . -name x2 $'-delete'",
          "find . -name x3 ${U:--delete}",
          "find . -name x4 $(echo -delete)",
          "find . -name x5 `echo -delete`",
          'find . -name x6 $"-delete"',
          "git diff HEAD $'--output=gd1'",
          "git diff HEAD --{output=gd2,stat}",
          "git diff HEAD ${U:---output=gd3}",
        ];
        server.script("plan-words", [
          { toolCalls: lines.map((command) => ({ name: "bash", arguments: { command } })) },
          { text: "planned" },
        ]);
        const dir = await dirFor("plan-words");
        const files = ["x1", "x2", "x3", "x4", "x5", "x6"];
        for (const f of files) await Deno.writeTextFile(`${dir}/${f}`, "x\n");
        const git = (...args: string[]) =>
          new Deno.Command("git", {
            args: ["-c", "user.name=t", "-c", "user.email=t@t", ...args],
            cwd: dir,
            stdout: "null",
            stderr: "null",
          }).output();
        await git("init", "-q");
        await git("add", "-A");
        await git("commit", "-qm", "start");
        await Deno.writeTextFile(`${dir}/x1`, "changed\n");
        const run = await runMM(["-p", "plan it", "--plan"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(server.toolOutputs("plan-words", 1), lines.map(() => PLAN_MODE_REFUSED));
        for (const f of files) assertEquals(await exists(`${dir}/${f}`), true, f);
        for (const f of ["gd1", "gd2", "gd3"]) assertEquals(await exists(`${dir}/${f}`), false, f);
      },
    "without --plan the system prompt has no plan paragraph, and the write runs": async () => {
      server.script("plan-off", [{ toolCalls: [write] }, { text: "written" }]);
      const dir = await dirFor("plan-off");
      const run = await runMM(["-p", "write it"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(systemOf("plan-off", 0).includes("Plan mode"), false);
      assertEquals(await Deno.readTextFile(`${dir}/plan.txt`), "done\n");
    },
    "--plan without -p is a usage error": async () => {
      const dir = await dirFor("plan-usage");
      const run = await runMM(["-tui", "--plan"], { cwd: dir });
      assertEquals(run.code, 2);
      assertStringIncludes(run.stderr, "--plan goes with -p");
    },
  });
});

Deno.test("line mode: Shift+Tab and /plan toggle the prompt; go after the plan writes", async () => {
  server.script("plan-line", [
    { toolCalls: [write] },
    { text: "the plan: write plan.txt" },
    { toolCalls: [write] },
    { text: "carried out" },
  ]);
  const dir = await dirFor("plan-line");
  const term = await Terminal.mm(dir);
  try {
    await term.waitFor("Ctrl-D quits.");
    await term.keys("BTab");
    let screen = await term.waitFor(/plan mode on[^]*\nplan ›\n$/);
    await term.type("/plan");
    await term.keys("Enter");
    screen = await term.waitFor(/plan mode off[^]*\n›\n$/);
    await term.type("/plan");
    await term.keys("Enter");
    await term.waitFor(/plan mode on[^]*plan mode off[^]*plan mode on[^]*\nplan ›\n$/);
    await term.type("plan it");
    await term.keys("Enter");
    await term.waitFor("the plan: write plan.txt");
    assertEquals(await exists(`${dir}/plan.txt`), false);
    await term.keys("BTab");
    await term.waitFor(/the plan: write plan\.txt[^]*plan mode off[^]*\n›\n$/);
    await term.type("go");
    await term.keys("Enter");
    screen = await term.waitFor("carried out");
    assertEquals(await Deno.readTextFile(`${dir}/plan.txt`), "done\n", screen);
    assertEquals(server.toolOutputs("plan-line", 1), [PLAN_MODE_REFUSED]);
    // The same conversation: the plan's turn is in the history "go" was sent with.
    const messages = server.chats("plan-line").at(-1)!.body.messages;
    assertEquals(messages.some((m: { content: string }) => m.content === "plan it"), true);
    assertStringIncludes(systemOf("plan-line", 0), PLAN_MODE_PROMPT);
    assertEquals(systemOf("plan-line", -1).includes("Plan mode"), false);
  } finally {
    await term.kill();
  }
});

Deno.test("window mode: Shift+Tab toggles plan on the status line", async () => {
  const dir = await dirFor("plan-window");
  const term = await Terminal.mm(dir, ["-tui"]);
  try {
    await term.waitFor("Ctrl-D quit");
    await term.keys("BTab");
    let screen = await term.waitFor("plan (Shift+Tab ends) · Enter send");
    assertStringIncludes(screen, "plan mode on");
    await term.keys("BTab");
    screen = await term.waitFor("plan mode off");
    assertEquals(screen.includes("plan (Shift+Tab ends)"), false, screen);
  } finally {
    await term.kill();
  }
});

Deno.test("editor mode: session/new lists the modes; set_mode plan refuses a write", async () => {
  server.script("plan-acp", [
    { toolCalls: [write] },
    { text: "planned" },
    { toolCalls: [write] },
    { text: "written" },
  ]);
  const dir = await dirFor("plan-acp");
  const editor = await Editor.start({ cwd: dir });
  try {
    const r = await editor.agent.request(methods.agent.session.new, { cwd: dir, mcpServers: [] });
    assertEquals(r.modes?.currentModeId, "default");
    assertEquals(r.modes?.availableModes.map((m) => m.id), ["default", "plan"]);
    await editor.agent.request(methods.agent.session.setMode, {
      sessionId: r.sessionId,
      modeId: "plan",
    });
    assertEquals(await editor.prompt(r.sessionId, "plan it"), "end_turn");
    assertEquals(server.toolOutputs("plan-acp", 1), [PLAN_MODE_REFUSED]);
    assertEquals(await exists(`${dir}/plan.txt`), false);
    await editor.agent.request(methods.agent.session.setMode, {
      sessionId: r.sessionId,
      modeId: "default",
    });
    assertEquals(await editor.prompt(r.sessionId, "go"), "end_turn");
    assertEquals(await Deno.readTextFile(`${dir}/plan.txt`), "done\n");
    const wrong = await editor.agent.request(methods.agent.session.setMode, {
      sessionId: r.sessionId,
      modeId: "yolo",
    }).then(() => "answered", (e: Error) => e.message);
    assertStringIncludes(wrong, "Invalid params");
  } finally {
    const finished = await editor.close();
    assertEquals(finished.code, 0, finished.stderr);
  }
});

Deno.test({
  name: "plan: the server closes",
  sanitizeResources: false,
  fn: async () => {
    await server.close();
  },
});

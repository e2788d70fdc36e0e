/**
 * The permission gate (Dispatcher in lib/agent/dispatch.ts) with the agent file's rules: deny >
 * ask > allow > the mode's default, a read out of the project, a fetch per host, the session's
 * rules an "always" adds.
 */

import { Dispatcher } from "../../lib/agent/dispatch.ts";
import type { AgentEvent } from "../../lib/agent/events.ts";
import { emptyCounters } from "../../lib/agent/recap.ts";
import { defaultConfig } from "../../lib/config/config.ts";
import type { PermissionAnswer } from "../../lib/permissions/prompt.ts";
import type { PermissionsConfig } from "../../lib/permissions/rules.ts";
import { PLAN_MODE_REFUSED } from "../../lib/permissions/plan.ts";
import type { Tool } from "../../lib/tool.ts";
import { readFile } from "../../tools/read_file.ts";
import { assertEquals } from "../helpers/assert.ts";
import { fakeContext } from "../helpers/fake_context.ts";

/** A tool named `name` of one string parameter, `asks` always, that answers `ran <value>`. */
function fakeTool(name: string, param: string): Tool<Record<string, string>> {
  return {
    name,
    kind: "other",
    emoji: "x",
    asks: true,
    declared: () => true,
    description: "",
    parameters: { [param]: { type: "string", description: "" } },
    summary: (input) => input[param],
    run: (input) => Promise.resolve({ output: `ran ${input[param]}` }),
  };
}

interface Asked {
  tool: string;
  summary: string;
  always?: string;
}

/** A dispatcher over bash, fetch_content and read_file, answering each question from `answers`. */
function gate(
  permissions: Partial<PermissionsConfig>,
  yolo: boolean,
  answers: PermissionAnswer[] = [],
  plan?: () => boolean,
) {
  const asked: Asked[] = [];
  const events: AgentEvent[] = [];
  const config = {
    ...defaultConfig(),
    yolo,
    permissions: { allow: [], ask: [], deny: [], ...permissions },
  };
  const files = { "/elsewhere/a.txt": "a\n", "/elsewhere/b.txt": "b\n", "in.txt": "in\n" };
  const dispatcher = new Dispatcher({
    config,
    tools: [fakeTool("bash", "command"), fakeTool("fetch_content", "url"), readFile],
    askPermission: (tool, summary, _input, _by, _change, always) => {
      asked.push({ tool, summary, always });
      return Promise.resolve(answers.shift() ?? { kind: "reject", unasked: true });
    },
    emit: (e) => {
      events.push(e);
      // What was asked by the time the call is announced: the gate decides first, asks after.
      if (e.type === "tool_call") events.push({ type: "notice", message: `${asked.length}` });
    },
    context: (signal) => fakeContext({ signal, files, config }),
    conversation: () => ({ history: [], callerText: "" }),
    recordError: () => {},
    plan,
  });
  const run = async (tool: string, input: Record<string, unknown>) => {
    const out = await dispatcher.command(tool, input, new AbortController().signal, "1");
    return out.kind === "refused" ? out.text : out.result.output.trim();
  };
  /** Runs a call as the model's (its events emitted): the ending event's output. */
  const call = async (tool: string, input: Record<string, unknown>) => {
    const c = { id: `call_${events.length}`, name: tool, arguments: JSON.stringify(input) };
    return (await dispatcher.run(c, new AbortController().signal, emptyCounters())).output.trim();
  };
  return { run, call, asked, events, dispatcher };
}

Deno.test("the gate with permission rules", async (t) => {
  await t.step("allow lets a command run unasked with yolo: false", async () => {
    const g = gate({ allow: ["bash(git status*)"] }, false);
    assertEquals(await g.run("bash", { command: "git status -s" }), "ran git status -s");
    assertEquals(g.asked, []);
  });
  await t.step("an allow does not cover a second command of the line", async () => {
    const g = gate({ allow: ["bash(git status*)"] }, false);
    assertEquals(
      await g.run("bash", { command: "git status; rm -rf x" }),
      "[command rejected by the user]",
    );
    assertEquals(g.asked.map((a) => a.always), ["bash"]);
  });
  await t.step("deny refuses even with yolo: true, naming the rule", async () => {
    const g = gate({ deny: ["bash(rm *)"], allow: ["bash"] }, true);
    assertEquals(
      await g.run("bash", { command: "ls && rm -rf x" }),
      '[command denied by the permission rule "deny: bash(rm *)" — it will be denied every time; do not call it again]',
    );
    assertEquals(await g.run("bash", { command: "ls" }), "ran ls");
    assertEquals(g.asked, []);
  });
  await t.step("ask asks even with yolo: true; nobody to ask names the rule", async () => {
    const g = gate({ ask: ["bash(git push*)"] }, true);
    assertEquals(
      await g.run("bash", { command: "git push" }),
      '[command rejected: the permission rule "ask: bash(git push*)" asks the user, and nobody can be asked in this mode]',
    );
    assertEquals(g.asked.map((a) => a.always), ["bash(git push*)"]);
  });
  await t.step("ask > allow; always passes the ask rule over for the session", async () => {
    const g = gate({ ask: ["bash(git push*)"], allow: ["bash(git *)"] }, false, [
      { kind: "allowAlways" },
    ]);
    assertEquals(await g.run("bash", { command: "git push" }), "ran git push");
    assertEquals(await g.run("bash", { command: "git push -f" }), "ran git push -f");
    assertEquals(g.asked.length, 1);
    assertEquals(g.dispatcher.sessionRules(), ["bash(git push*)"]);
  });
  await t.step("a session's bare always does not pass over an ask rule", async () => {
    const g = gate({ ask: ["bash(rm *)"] }, false, [{ kind: "allowAlways" }, { kind: "allow" }]);
    assertEquals(await g.run("bash", { command: "ls" }), "ran ls");
    assertEquals(await g.run("bash", { command: "pwd" }), "ran pwd");
    assertEquals(await g.run("bash", { command: "rm x" }), "ran rm x");
    assertEquals(g.asked.map((a) => a.always), ["bash", "bash(rm *)"]);
    assertEquals(g.dispatcher.sessionRules(), ["bash"]);
  });
  await t.step("a reject the user typed keeps its text under an ask rule", async () => {
    const g = gate({ ask: ["bash(rm *)"] }, true, [{ kind: "reject" }]);
    assertEquals(await g.run("bash", { command: "rm x" }), "[command rejected by the user]");
  });
  await t.step("a path rule on read_file: deny, and ask in the project", async () => {
    const g = gate({ deny: ["read_file(/elsewhere/b.*)"], ask: ["read_file(in.txt)"] }, true);
    assertEquals(
      await g.run("read_file", { path: "/elsewhere/b.txt" }),
      '[read_file denied by the permission rule "deny: read_file(/elsewhere/b.*)" — it will be denied every time; do not call it again]',
    );
    assertEquals(
      await g.run("read_file", { path: "in.txt" }),
      '[read_file rejected: the permission rule "ask: read_file(in.txt)" asks the user, and nobody can be asked in this mode]',
    );
    assertEquals(await g.run("read_file", { path: "/elsewhere/a.txt" }), "a");
  });
});

Deno.test("the gate without rules: reads out of the project, fetches per host", async (t) => {
  await t.step("read_file out of the project asks with yolo: false; in it, not", async () => {
    const g = gate({}, false);
    assertEquals(await g.run("read_file", { path: "in.txt" }), "in");
    assertEquals(
      await g.run("read_file", { path: "/elsewhere/a.txt" }),
      "[read_file rejected by the user]",
    );
    assertEquals(g.asked, [{
      tool: "read_file",
      summary: "/elsewhere/a.txt → /elsewhere/a.txt (outside the project)",
      always: "read_file(/elsewhere/**)",
    }]);
  });
  await t.step("read_file out of the project runs with yolo: true", async () => {
    const g = gate({}, true);
    assertEquals(await g.run("read_file", { path: "/elsewhere/a.txt" }), "a");
    assertEquals(g.asked, []);
  });
  await t.step("always for a read out of the project allows its directory", async () => {
    const g = gate({}, false, [{ kind: "allowAlways" }]);
    assertEquals(await g.run("read_file", { path: "/elsewhere/a.txt" }), "a");
    assertEquals(await g.run("read_file", { path: "/elsewhere/b.txt" }), "b");
    assertEquals(g.asked.length, 1);
  });
  await t.step("always for a fetch allows its host, and asks for another", async () => {
    const g = gate({}, false, [{ kind: "allowAlways" }, { kind: "allow" }]);
    assertEquals(await g.run("fetch_content", { url: "http://a.test/1" }), "ran http://a.test/1");
    assertEquals(await g.run("fetch_content", { url: "http://A.test/2" }), "ran http://A.test/2");
    assertEquals(await g.run("fetch_content", { url: "http://b.test/" }), "ran http://b.test/");
    assertEquals(g.asked.map((a) => a.always), ["fetch_content(a.test)", "fetch_content(b.test)"]);
    assertEquals(g.dispatcher.sessionRules(), ["fetch_content(a.test)"]);
  });
  await t.step("a fetch is rejected where nobody can be asked", async () => {
    const g = gate({}, false);
    assertEquals(
      await g.run("fetch_content", { url: "http://a.test/" }),
      "[fetch_content rejected by the user]",
    );
  });
});

Deno.test("plan mode decides before the rules", async (t) => {
  let on = true;
  const plan = () => on;
  await t.step("a reading command runs (plan mode allows nothing the mode would ask)", async () => {
    const g = gate({}, true, [], plan);
    assertEquals(await g.run("bash", { command: "ls -la" }), "ran ls -la");
    assertEquals(g.asked, []);
  });
  await t.step(
    "a write is refused with the text, unasked, even with yolo and an allow",
    async () => {
      const g = gate({ allow: ["bash"] }, true, [{ kind: "allow" }], plan);
      assertEquals(await g.run("bash", { command: "cat x > y" }), PLAN_MODE_REFUSED);
      assertEquals(await g.run("bash", { command: "ls; rm x" }), PLAN_MODE_REFUSED);
      assertEquals(g.asked, []);
    },
  );
  await t.step("a deny rule still refuses a reading call", async () => {
    const g = gate({ deny: ["bash(ls*)"] }, true, [], plan);
    assertEquals((await g.run("bash", { command: "ls" })).startsWith("[command denied"), true);
  });
  await t.step("plan mode off: the rules and the mode as before", async () => {
    on = false;
    const g = gate({}, true, [], plan);
    assertEquals(await g.run("bash", { command: "cat x > y" }), "ran cat x > y");
  });
});

Deno.test("tool_call says whether the gate will ask, before it asks", async (t) => {
  /** The tool_call events' `asks`, each with how many questions were asked when it came. */
  const announced = (events: AgentEvent[]) =>
    events.flatMap((e, i) => {
      if (e.type !== "tool_call") return [];
      const next = events[i + 1];
      return [{ asks: e.asks, askedBefore: next?.type === "notice" ? next.message : "?" }];
    });
  await t.step("a call that asks: asks: true, and nothing asked yet", async () => {
    const g = gate({}, false, [{ kind: "allow" }]);
    assertEquals(await g.call("bash", { command: "ls" }), "ran ls");
    assertEquals(announced(g.events), [{ asks: true, askedBefore: "0" }]);
    assertEquals(g.asked.length, 1);
  });
  await t.step("a call that runs unasked (yolo, an allow rule): no asks", async () => {
    const g = gate({ allow: ["bash(ls*)"] }, false);
    assertEquals(await g.call("bash", { command: "ls" }), "ran ls");
    assertEquals(await gate({}, true).call("bash", { command: "ls" }), "ran ls");
    assertEquals(announced(g.events), [{ asks: undefined, askedBefore: "0" }]);
    assertEquals("asks" in g.events[0], false);
  });
  await t.step("a call a deny rule refuses: no asks", async () => {
    const g = gate({ deny: ["bash(rm*)"] }, false);
    assertEquals((await g.call("bash", { command: "rm x" })).startsWith("[command denied"), true);
    assertEquals(announced(g.events), [{ asks: undefined, askedBefore: "0" }]);
    assertEquals(g.asked, []);
  });
  await t.step("an always answer: the next call of the tool does not ask", async () => {
    const g = gate({}, false, [{ kind: "allowAlways" }]);
    await g.call("bash", { command: "ls" });
    await g.call("bash", { command: "pwd" });
    assertEquals(announced(g.events), [
      { asks: true, askedBefore: "0" },
      { asks: undefined, askedBefore: "1" },
    ]);
  });
});

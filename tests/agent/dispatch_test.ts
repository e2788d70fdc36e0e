/**
 * How a call is prepared (lib/agent/dispatch.ts): a tool that declares its own schema and reads its
 * own input (`Tool.parse`) through the core, and how a stored call shows (`describeCall`).
 */

import { Agent } from "../../lib/agent/agent.ts";
import {
  callTargets,
  describeCall,
  prepareCall,
  redactedResult,
} from "../../lib/agent/dispatch.ts";
import { addSecret } from "../../lib/secrets.ts";
import { abandonedText, CANCEL_GRACE, unknownToolText } from "../../lib/agent/texts.ts";
import { coerceInput } from "../../lib/tool_input.ts";
import { toolSchema } from "../../lib/agent/schema.ts";
import { defaultConfig } from "../../lib/config/config.ts";
import { createChatClient } from "../../lib/provider/chat.ts";
import type { Tool } from "../../lib/tool.ts";
import { BUILTIN_TOOLS } from "../../tools/mod.ts";
import { assertEquals } from "../helpers/assert.ts";
import { fakeContext } from "../helpers/fake_context.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

/** A tool whose `items` is a list: parsed by the tool, not by the core's scalar coercion. */
function listTool(seen: unknown[]): Tool<{ items: string[] }> {
  return {
    name: "count_items",
    kind: "other",
    emoji: "🔢",
    asks: false,
    declared: () => true,
    description: "Counts items.",
    parameters: { items: { type: "array", description: "The items." } },
    schema: {
      type: "object",
      properties: { items: { type: "array", items: { type: "string" } } },
      required: ["items"],
    },
    parse(args) {
      const items = typeof args.items === "string" ? JSON.parse(args.items) : args.items;
      if (!Array.isArray(items)) return { ok: false, faults: ["items is not a list"] };
      return { ok: true, input: { items: items.map(String) } };
    },
    summary: (input) => `${input.items.length}`,
    run(input) {
      seen.push(input);
      return Promise.resolve({ output: `${input.items.length} items` });
    },
  };
}

Deno.test("a tool's own schema and parse", async (t) => {
  await t.step("toolSchema sends the tool's schema when it has one", () => {
    const tool = listTool([]);
    assertEquals(toolSchema(tool).function.parameters, tool.schema);
    const { schema: _, ...plain } = tool;
    assertEquals(toolSchema(plain).function.parameters, {
      type: "object",
      properties: { items: { type: "array", description: "The items." } },
      required: ["items"],
    });
  });

  await t.step(
    "the core uses parse instead of coerceInput; its faults refuse the call",
    async () => {
      const seen: unknown[] = [];
      const model = "tool-parse";
      server.script(model, [
        {
          toolCalls: [
            { name: "count_items", arguments: { items: '["a", "b"]' } },
            { name: "count_items", arguments: { items: 3 } },
          ],
        },
        { text: "done" },
      ]);
      const config = { ...defaultConfig(), url: server.url, model };
      const agent = new Agent({
        config,
        chat: createChatClient(config, model),
        tools: [listTool(seen)],
        systemPrompt: "test",
        context: (signal) => fakeContext({ signal }),
        askPermission: () => Promise.resolve({ kind: "reject" }),
        emit: () => {},
      });
      const outcome = await agent.runTurn("count", new AbortController().signal);
      assertEquals(outcome.status, "answered");
      assertEquals(seen, [{ items: ["a", "b"] }]);
      const request = server.chats(model)[0].body;
      assertEquals(request.tools[0].function.parameters, listTool([]).schema);
      // deno-lint-ignore no-explicit-any
      const tools = server.chats(model)[1].body.messages.filter((m: any) => m.role === "tool");
      assertEquals(tools[0].content, "2 items");
      assertEquals(
        tools[1].content,
        '[count_items: invalid call, nothing was run — items is not a list. You sent: {"items":3}. Expected: items (array): The items. Call count_items again with each parameter as its own field.]',
      );
    },
  );

  await t.step("six identical calls that succeed: stopped, and not called failing", async () => {
    const model = "loop-ok";
    const call = { toolCalls: [{ name: "count_items", arguments: { items: ["a"] } }] };
    server.script(model, Array.from({ length: 6 }, () => call));
    const config = { ...defaultConfig(), url: server.url, model };
    const agent = new Agent({
      config,
      chat: createChatClient(config, model),
      tools: [listTool([])],
      systemPrompt: "test",
      context: (signal) => fakeContext({ signal }),
      askPermission: () => Promise.resolve({ kind: "reject" }),
      emit: () => {},
    });
    const outcome = await agent.runTurn("count", new AbortController().signal);
    assertEquals(outcome.status === "failed" && [outcome.reason, outcome.error], [
      "loop",
      "[error: the model repeated the same count_items call 6 times in a row with the same result — turn stopped by the loop detector; rephrase the request, or fix what the tool kept reporting]",
    ]);
  });

  await t.step("coerceInput knows an array parameter only as a list", () => {
    const params = { items: { type: "array" as const, description: "x" } };
    assertEquals(coerceInput(params, { items: [1] }), { ok: true, input: { items: [1] } });
    assertEquals(coerceInput(params, { items: "a" }), {
      ok: false,
      faults: ['items: "a" is not an array'],
      partial: {},
    });
  });

  await t.step(
    "a tool that never ends is left behind within a second of the cancellation",
    async () => {
      const model = "tool-stuck";
      const hang: Tool<Record<string, never>> = {
        name: "hang",
        kind: "other",
        emoji: "⏳",
        asks: false,
        declared: () => true,
        description: "Never ends.",
        parameters: {},
        summary: () => "",
        run: () => new Promise(() => {}),
      };
      server.script(model, [{ toolCalls: [{ name: "hang", arguments: {} }] }]);
      const config = { ...defaultConfig(), url: server.url, model };
      const outputs: string[] = [];
      const agent = new Agent({
        config,
        chat: createChatClient(config, model),
        tools: [hang],
        systemPrompt: "test",
        context: (signal) => fakeContext({ signal }),
        askPermission: () => Promise.resolve({ kind: "reject" }),
        emit: (e) => e.type === "tool_result" && outputs.push(e.output),
      });
      const controller = new AbortController();
      const turn = agent.runTurn("wait", controller.signal);
      while (server.chats(model).length === 0) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 100));
      const cancelled = Date.now();
      controller.abort();
      const outcome = await turn;
      const took = Date.now() - cancelled;
      assertEquals(outcome.status, "cancelled");
      assertEquals(took >= CANCEL_GRACE, true, `${took} ms`);
      assertEquals(outputs, [abandonedText("hang")]);
      assertEquals(
        abandonedText("hang"),
        "[error: cancelled: hang did not stop within 1s of the cancellation and was left behind]",
      );
      assertEquals(agent.history.at(-1), {
        role: "tool",
        tool_call_id: "call_0",
        content: abandonedText("hang"),
      });
    },
  );

  await server.close();
});

Deno.test("describeCall", async (t) => {
  await t.step("a known tool: its kind and summary", () => {
    assertEquals(describeCall(BUILTIN_TOOLS, "read_file", '{"path": "a.ts"}'), {
      name: "read_file",
      kind: "read",
      summary: "a.ts",
      input: { path: "a.ts" },
    });
  });
  await t.step("a name written loosely is forgiven, as the core does", () => {
    assertEquals(describeCall(BUILTIN_TOOLS, "Read-File", '{"path": "a.ts"}').name, "read_file");
  });
  await t.step("an unknown tool or bad arguments: kind other, the raw arguments", () => {
    assertEquals(describeCall(BUILTIN_TOOLS, "nope", "{}"), {
      name: "nope",
      kind: "other",
      summary: "{}",
      input: "{}",
    });
    assertEquals(describeCall(BUILTIN_TOOLS, "bash", "{not json").kind, "other");
  });
});

Deno.test("a name no declared tool has: the tools that claim it answer, else the core", () => {
  const tools = [listTool([])];
  const unknown = (name: string, declared: readonly string[]) =>
    name.startsWith("fs_") ? `[fs has no ${name}; declared: ${declared.join(", ")}]` : undefined;
  assertEquals(prepareCall(tools, { name: " fs_x", arguments: "{}" }, unknown), {
    ok: false,
    refusal: "[fs has no fs_x; declared: count_items]",
  });
  assertEquals(
    prepareCall(tools, { name: "Count-Items", arguments: '{"items": []}' }, unknown).ok,
    true,
    "a declared tool's forgiven name is that tool's",
  );
  assertEquals(prepareCall(tools, { name: "web", arguments: "{}" }, unknown), {
    ok: false,
    refusal: unknownToolText("web", ["count_items"]),
  });
});

Deno.test("redactedResult: the one place a tool's output is redacted before the model reads it", () => {
  addSecret("sk-dispatch-secret-42424242");
  const result = { output: "key sk-dispatch-secret-42424242 and http://u:pw@h/x", failed: true };
  assertEquals(redactedResult(result), { output: "key *** and http://***@h/x", failed: true });
  const clean = { output: "nothing secret" };
  assertEquals(redactedResult(clean), clean);
});

Deno.test("prepareCall: a path with a line break is refused by the one path rule, edit_file too", () => {
  for (const name of ["write_file", "edit_file", "read_file"]) {
    const prepared = prepareCall(BUILTIN_TOOLS, {
      name,
      arguments: JSON.stringify({
        path: "a.txt\n+x",
        content: "",
        edits: [{ old: "a", new: "b" }],
      }),
    });
    assertEquals(prepared.ok, false, name);
    if (!prepared.ok) {
      assertEquals(
        prepared.refusal.startsWith(
          `[${name}: invalid call, nothing was run — path holds a line break or a control character (U+000A), which a file path may not hold.`,
        ),
        true,
        prepared.refusal,
      );
    }
  }
});

Deno.test("callTargets: a path through a link or out of the project is named by its real target", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.mkdir(`${root}/project/sub`, { recursive: true });
    await Deno.mkdir(`${root}/elsewhere`);
    await Deno.symlink(`${root}/elsewhere`, `${root}/project/out`);
    await Deno.symlink(`${root}/project/sub`, `${root}/project/in`);
    const { realFiles } = await import("../../lib/files.ts");
    const ctx = { cwd: `${root}/project`, fs: realFiles(`${root}/project`) };
    const write = BUILTIN_TOOLS.find((t) => t.name === "write_file")!;
    const at = (path: string) => callTargets(write, { path, content: "" }, ctx);
    assertEquals(await at("sub/a.txt"), []);
    assertEquals(await at("out/new/a.txt"), [{
      real: `${root}/elsewhere/new/a.txt`,
      outside: true,
    }]);
    assertEquals(await at("in/a.txt"), [{ real: `${root}/project/sub/a.txt`, outside: false }]);
    assertEquals(await at("../x.txt"), [{ real: `${root}/x.txt`, outside: true }]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

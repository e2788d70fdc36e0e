/** The mapping from the core's events and a session's history to ACP session updates. */

import {
  promptText,
  replayUpdates,
  toolCallEnd,
  toolTitle,
  typedPrompt,
} from "../../../lib/frontend/acp/updates.ts";
import { HOOK_CONTEXT_MARKER } from "../../../lib/hooks/run.ts";
import type { Message } from "../../../lib/history.ts";
import { BUILTIN_TOOLS } from "../../../tools/mod.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("toolTitle", async (t) => {
  await t.step("name and summary, without the terminal's emoji", () => {
    assertEquals(toolTitle("bash", "ls -la"), "bash: ls -la");
  });
  await t.step("a several-line summary is kept whole", () => {
    assertEquals(toolTitle("bash", "cd x\nmake"), "bash: cd x\nmake");
  });
  await t.step("an empty summary leaves the name alone", () => {
    assertEquals(toolTitle("unload_model", ""), "unload_model");
  });
});

Deno.test("toolCallEnd", async (t) => {
  const base = { type: "tool_result" as const, id: "c", name: "x", output: "out", failed: false };
  await t.step("the output as text, completed", () => {
    assertEquals(toolCallEnd(base, "c", "x: y"), {
      sessionUpdate: "tool_call_update",
      toolCallId: "c",
      title: "x: y",
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "out" } }],
      rawOutput: { output: "out" },
    });
  });
  await t.step("failed, with locations", () => {
    const u = toolCallEnd({ ...base, failed: true }, "c", "x", ["/a/b"]);
    assertEquals([u.sessionUpdate, (u as { status: string }).status], [
      "tool_call_update",
      "failed",
    ]);
    assertEquals((u as { locations: unknown }).locations, [{ path: "/a/b" }]);
  });
  await t.step("a diff before the text; no oldText for a new file", () => {
    const u = toolCallEnd({ ...base, diff: { path: "/p", newText: "n" } }, "c", "x");
    assertEquals((u as { content: unknown[] }).content[0], {
      type: "diff",
      path: "/p",
      newText: "n",
    });
    const v = toolCallEnd({ ...base, diff: { path: "/p", oldText: "", newText: "n" } }, "c", "x");
    assertEquals((v as { content: unknown[] }).content[0], {
      type: "diff",
      path: "/p",
      oldText: "",
      newText: "n",
    });
  });
  await t.step("an output the terminal does not echo is left out, unless the call failed", () => {
    const hidden = toolCallEnd({ ...base, preview: false }, "c", "x");
    assertEquals((hidden as { content: unknown[] }).content, []);
    const failed = toolCallEnd({ ...base, preview: false, failed: true }, "c", "x");
    assertEquals((failed as { content: unknown[] }).content.length, 1);
  });
});

Deno.test("promptText", async (t) => {
  await t.step("text blocks joined as they come", () => {
    assertEquals(
      promptText([{ type: "text", text: "fix " }, { type: "text", text: "it" }], "/w"),
      "fix it",
    );
  });
  await t.step("a file link inside the cwd becomes its relative path", () => {
    assertEquals(
      promptText([
        { type: "text", text: "read " },
        { type: "resource_link", name: "a.ts", uri: "file:///w/src/a.ts" },
        { type: "text", text: " please" },
      ], "/w"),
      "read src/a.ts please",
    );
  });
  await t.step("a file link outside stays absolute; other URIs stay as they are", () => {
    assertEquals(
      promptText([{ type: "resource_link", name: "x", uri: "file:///etc/hosts" }], "/w"),
      "/etc/hosts",
    );
    assertEquals(
      promptText([{ type: "resource_link", name: "x", uri: "https://x.org/a" }], "/w"),
      "https://x.org/a",
    );
  });
  await t.step("an embedded text resource comes with its content", () => {
    assertEquals(
      promptText([{
        type: "resource",
        resource: { uri: "file:///w/a.txt", text: "hello" },
      }], "/w"),
      "\na.txt:\n```\nhello\n```\n",
    );
  });
  await t.step("a link or a note beside text without a space gets one", () => {
    assertEquals(
      promptText([
        { type: "text", text: "read" },
        { type: "resource_link", name: "a.ts", uri: "file:///w/src/a.ts" },
        { type: "image", data: "", mimeType: "image/png" },
        { type: "text", text: "and say" },
        { type: "text", text: " why" },
      ], "/w"),
      "read src/a.ts [image left out: mm reads text only] and say why",
    );
    assertEquals(
      promptText([
        { type: "text", text: "see (" },
        { type: "resource_link", name: "a.ts", uri: "file:///w/src/a.ts#L2" },
        { type: "text", text: "), then" },
        { type: "resource_link", name: "w", uri: "file:///w" },
      ], "/w"),
      "see (src/a.ts#L2), then .",
    );
  });
  await t.step("an image is left out with a note", () => {
    assertEquals(
      promptText([{ type: "image", data: "", mimeType: "image/png" }], "/w"),
      "[image left out: mm reads text only]",
    );
  });
});

Deno.test("typedPrompt", async (t) => {
  await t.step("without the context a hook added", () => {
    assertEquals(typedPrompt(`fix it\n${HOOK_CONTEXT_MARKER}\nbranch: main`), "fix it");
  });
  await t.step("a prompt without hook context is kept", () => {
    assertEquals(typedPrompt("fix it"), "fix it");
  });
});

Deno.test("replayUpdates", async (t) => {
  const history: Message[] = [
    { role: "system", content: "sys" },
    { role: "user", content: "hi" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{
        id: "call_0",
        type: "function",
        function: { name: "bash", arguments: '{"command":"ls"}' },
      }],
    },
    { role: "tool", tool_call_id: "call_0", content: "a\n" },
    { role: "assistant", content: "done" },
    { role: "user", content: "again" },
    {
      role: "assistant",
      content: "",
      tool_calls: [{
        id: "call_0",
        type: "function",
        function: { name: "bash", arguments: '{"command":"pwd"}' },
      }],
    },
    { role: "tool", tool_call_id: "call_0", content: "/w\n" },
  ];
  const used = new Set<string>();
  const ids = (id: string) => {
    let out = id;
    for (let n = 2; used.has(out); n++) out = `${id}-${n}`;
    used.add(out);
    return out;
  };
  const updates = replayUpdates(history, BUILTIN_TOOLS, ids);
  await t.step("questions, answers and calls in order, the system prompt left out", () => {
    assertEquals(updates.map((u) => u.sessionUpdate), [
      "user_message_chunk",
      "tool_call",
      "tool_call_update",
      "agent_message_chunk",
      "user_message_chunk",
      "tool_call",
      "tool_call_update",
    ]);
  });
  await t.step("a reused call id gets a fresh one, and its output follows it", () => {
    const second = updates[5] as { toolCallId: string; title: string };
    assertEquals([second.toolCallId, second.title], ["call_0-2", "bash: pwd"]);
    assertEquals((updates[6] as { toolCallId: string }).toolCallId, "call_0-2");
  });
});

Deno.test("replayUpdates: a call the model named loosely replays as the tool it ran", () => {
  // The core ran `readFile` as read_file; the replay after session/load must show the same call,
  // not an unknown tool of kind other with its raw arguments.
  const history: Message[] = [
    { role: "system", content: "sys" },
    { role: "user", content: "read it" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{
        id: "call_0",
        type: "function",
        function: { name: "readFile", arguments: '{"path":"a.ts"}' },
      }],
    },
    { role: "tool", tool_call_id: "call_0", content: "1 │ x\n" },
  ];
  const call = replayUpdates(history, BUILTIN_TOOLS, (id) => id)[1] as {
    title: string;
    kind: string;
    rawInput: unknown;
  };
  assertEquals([call.title, call.kind, call.rawInput], ["read_file: a.ts", "read", {
    path: "a.ts",
  }]);
});

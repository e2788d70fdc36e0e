/** The mapping from the core's events and a replayed history to ACP session updates. */

import { promptText, toolCallEnd, toolTitle } from "../../../lib/frontend/acp/updates.ts";
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

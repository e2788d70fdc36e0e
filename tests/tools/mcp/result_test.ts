/** What the model reads of an MCP call (tools/mcp/result.ts). */

import {
  base64Bytes,
  callOutput,
  failedText,
  notRunningText,
  resultText,
  serverErrorText,
  sizeText,
} from "../../../tools/mcp/result.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("resultText", async (t) => {
  const rows: [string, unknown[], unknown, string][] = [
    [
      "text blocks joined",
      [{ type: "text", text: "one" }, { type: "text", text: "two" }],
      undefined,
      "one\ntwo",
    ],
    [
      "an image as one line",
      [{ type: "image", mimeType: "image/png", data: btoa("x".repeat(34 * 1024)) }],
      undefined,
      "[image/png, 34 KB, not shown to the model]",
    ],
    [
      "audio as one line",
      [{ type: "audio", mimeType: "audio/wav", data: btoa("x".repeat(100)) }],
      undefined,
      "[audio/wav, 100 bytes, not shown to the model]",
    ],
    [
      "structured content as compact JSON when there is no text",
      [],
      { temperature: 21, unit: "C" },
      '{"temperature":21,"unit":"C"}',
    ],
    [
      "structured content left out beside text (the text carries it)",
      [{ type: "text", text: '{"temperature": 21}' }],
      { temperature: 21 },
      '{"temperature": 21}',
    ],
    [
      "structured content before an image's line",
      [{ type: "image", mimeType: "image/png", data: "" }],
      [1, 2],
      "[1,2]\n[image/png, 0 bytes, not shown to the model]",
    ],
    [
      "an embedded text resource: its text; a binary one: one line",
      [
        { type: "resource", resource: { uri: "file:///a.txt", text: "hello" } },
        {
          type: "resource",
          resource: { uri: "demo://b", mimeType: "application/gzip", blob: btoa("zz") },
        },
      ],
      undefined,
      "hello\n[demo://b: application/gzip, 2 bytes, not shown to the model]",
    ],
    [
      "a resource link",
      [{ type: "resource_link", uri: "demo://resource/1", name: "Resource 1" }],
      undefined,
      "[resource link: demo://resource/1 (Resource 1)]",
    ],
    ["an unknown block", [{ type: "video" }], undefined, "[video content, not shown to the model]"],
    ["nothing", [], undefined, ""],
  ];
  for (const [name, content, structuredContent, expected] of rows) {
    await t.step(name, () => {
      assertEquals(resultText({ content, structuredContent, isError: false }), expected);
    });
  }
});

Deno.test("callOutput: every way a call ends", async (t) => {
  await t.step("a result, cut to maxOutput like bash's", () => {
    const text = "a".repeat(100) + "b".repeat(100);
    const out = callOutput("fs", "fs_read_file", {
      kind: "result",
      result: { content: [{ type: "text", text }], isError: false },
    }, 120);
    assertEquals(out.failed, undefined);
    assertEquals(out.output.length <= 120, true);
    assertEquals(out.output.includes("characters cut: output truncated to maxOutput"), true);
  });
  await t.step("isError: a failed call, the server's text after the tool's name", () => {
    const failed = (text: string, max = 1000) =>
      callOutput("fs", "fs_read_file", {
        kind: "result",
        result: { content: [{ type: "text", text }], isError: true },
      }, max);
    assertEquals(failed("no such file"), {
      output: "[fs_read_file failed: no such file]",
      failed: true,
    });
    assertEquals(failed("  "), { output: "[fs_read_file failed, with no message]", failed: true });
    const long = failed("x".repeat(500), 200).output;
    assertEquals([long.startsWith("[fs_read_file failed: xxx"), long.length <= 200], [true, true]);
    assertEquals(failedText("fs read_file", "denied"), "[fs read_file failed: denied]");
  });
  await t.step("a server that is not running", () => {
    assertEquals(
      callOutput(
        "fs",
        "fs_read_file",
        { kind: "down", reason: "exited with status 1: boom" },
        1000,
      ),
      {
        output:
          "[fs is not running: exited with status 1: boom — its tools cannot be used in this conversation]",
        failed: true,
      },
    );
    assertEquals(
      notRunningText("gh", "HTTP 401 Unauthorized"),
      "[gh is not running: HTTP 401 Unauthorized — its tools cannot be used in this conversation]",
    );
  });
  await t.step("a timeout, a cancellation, an error of the protocol", () => {
    assertEquals(callOutput("fs", "fs_read_file", { kind: "timeout", ms: 60_000 }, 1000), {
      output: "[error: 1m timeout exceeded]",
      failed: true,
    });
    assertEquals(callOutput("fs", "fs_read_file", { kind: "cancelled" }, 1000), {
      output: "[error: cancelled]",
      failed: true,
    });
    assertEquals(
      callOutput("fs", "fs_read_file", { kind: "error", message: "Tool nope not found" }, 1000),
      {
        output: "[error: fs refused the call: Tool nope not found]",
        failed: true,
      },
    );
    assertEquals(
      serverErrorText("gh", "Invalid params"),
      "[error: gh refused the call: Invalid params]",
    );
  });
});

Deno.test("sizes", () => {
  assertEquals([sizeText(0), sizeText(1023), sizeText(1024), sizeText(34 * 1024 + 300)], [
    "0 bytes",
    "1023 bytes",
    "1 KB",
    "34 KB",
  ]);
  assertEquals(sizeText(3 * 1024 * 1024 + 200_000), "3.2 MB");
  assertEquals([base64Bytes(btoa("a")), base64Bytes(btoa("ab")), base64Bytes(btoa("abc"))], [
    1,
    2,
    3,
  ]);
});

/** A stdio MCP server's process and transport (lib/mcp/stdio.ts). */

import { LastLines, StdioTransport } from "../../lib/mcp/stdio.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("LastLines keeps the last 20 lines, each cut short", () => {
  const lines = new LastLines();
  lines.push("one\ntwo\r\n\n   \nthr");
  assertEquals([lines.lines, lines.last()], [["one", "two"], "thr"]);
  lines.push("ee\n");
  assertEquals(lines.last(), "three");
  for (let i = 0; i < 30; i++) lines.add(`line ${i}`);
  assertEquals([lines.lines.length, lines.lines[0], lines.last()], [20, "line 10", "line 29"]);
  lines.add("x".repeat(400));
  assertEquals(lines.last(), `${"x".repeat(300)}…`);
});

Deno.test("StdioTransport: messages by line, stray stdout kept with stderr, the end told", async () => {
  const script = [
    'echo "Starting server..."',
    'echo \'{"jsonrpc":"2.0","method":"notifications/message","params":{}}\'',
    "echo oops >&2",
    "exit 4",
  ].join("; ");
  const transport = new StdioTransport({
    argv: ["bash", "-c", script],
    cwd: "/tmp",
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
  });
  const messages: unknown[] = [];
  let closed = 0;
  transport.onmessage = (m) => messages.push(m);
  transport.onclose = () => closed++;
  await transport.start();
  assertEquals(await transport.ended, { code: 4 });
  assertEquals(messages, [{ jsonrpc: "2.0", method: "notifications/message", params: {} }]);
  assertEquals(transport.stderr.lines.sort(), ["Starting server...", "oops"]);
  assertEquals(closed, 1);
  await transport.close();
});

Deno.test("StdioTransport: a program that is not there", async () => {
  const transport = new StdioTransport({ argv: ["no-such-mcp-server"], cwd: "/tmp", env: {} });
  let error = "";
  await transport.start().catch((e) => error = e.message);
  assertEquals(error, "no-such-mcp-server cannot be started: executable file not found in $PATH");
});

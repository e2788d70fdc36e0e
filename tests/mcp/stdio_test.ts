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

/** What Node 20 writes on stderr when an uncaught RangeError ends it. */
const NODE_CRASH = `/srv/x.js:1
function f(){ throw new RangeError("Invalid array length"); }
              ^

RangeError: Invalid array length
    at f (/srv/x.js:1:21)
    at Object.<anonymous> (/srv/x.js:2:1)
    at Module._compile (node:internal/modules/cjs/loader:1521:14)
    at Module._extensions..js (node:internal/modules/cjs/loader:1623:10)
    at Module.load (node:internal/modules/cjs/loader:1266:32)
    at node:internal/main/run_main_module:28:49

Node.js v20.20.2
`;

Deno.test("LastLines.summary: the error and its first frame, not the runtime's banner", () => {
  const cases: [string, string | undefined][] = [
    [NODE_CRASH, "RangeError: Invalid array length, at f (/srv/x.js:1:21)"],
    [
      [
        "node:internal/modules/cjs/loader:1080",
        "  throw err;",
        "  ^",
        "",
        "Error: Cannot find module '/srv/nope.js'",
        "    at Module._resolveFilename (node:internal/modules/cjs/loader:1077:15)",
        "    at Module._load (node:internal/modules/cjs/loader:922:27)",
        "    at node:internal/main/run_main_module:23:47 {",
        "  code: 'MODULE_NOT_FOUND',",
        "  requireStack: []",
        "}",
        "",
        "Node.js v22.11.0",
      ].join("\n"),
      "Error: Cannot find module '/srv/nope.js', at Module._resolveFilename (node:internal/modules/cjs/loader:1077:15)",
    ],
    [
      "error: Uncaught (in promise) TypeError: x is not a function\n    at file:///srv/main.ts:3:1\n",
      "error: Uncaught (in promise) TypeError: x is not a function, at file:///srv/main.ts:3:1",
    ],
    [
      'Traceback (most recent call last):\n  File "s.py", line 1, in <module>\nValueError: bad\n',
      "ValueError: bad",
    ],
    ["listening on stdio\nno token given\n", "no token given"],
    ["Node.js v22.11.0\n", undefined],
  ];
  for (const [text, summary] of cases) {
    const lines = new LastLines();
    lines.push(text);
    assertEquals(lines.summary(), summary);
  }
});

Deno.test("LastLines keeps the first frames of a trace, so a long one does not push out its error", () => {
  const lines = new LastLines();
  lines.push("RangeError: deep\n" + "    at f (/x.js:1:1)\n".repeat(50) + "\nNode.js v22.0.0\n");
  assertEquals(lines.lines, [
    "RangeError: deep",
    "    at f (/x.js:1:1)",
    "    at f (/x.js:1:1)",
    "    at f (/x.js:1:1)",
    "Node.js v22.0.0",
  ]);
  assertEquals(lines.summary(), "RangeError: deep, at f (/x.js:1:1)");
});

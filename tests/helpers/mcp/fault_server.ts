/**
 * A small MCP server over stdio for the tests' faults, spoken by hand (JSON-RPC lines, no SDK):
 * a tool with a schema lacking `type: "object"`, one without a name, nested `$ref`s with
 * `pattern` and `format`, structured content without an output schema, an image, an error
 * result, a slow call that records its `notifications/cancelled`, a hang, a crash; and, by
 * environment variable, a slow start, an exit at start, a process that ignores the end of its
 * stdin and SIGTERM, a child process of its own, a changed tool list, many tools.
 *
 *   FAULT_START_DELAY_MS   wait before answering `initialize`
 *   FAULT_EXIT_AT_START    write FAULT_EXIT_AT_START on stderr and exit with status 3
 *   FAULT_STUBBORN         ignore the end of stdin and SIGTERM
 *   FAULT_PID_FILE         write "<pid> <child pid>" there once started (the child is `sleep`)
 *   FAULT_LOG              append one line per request and cancellation there
 *   FAULT_MANY             declare that many more tools (`extra_1` …)
 *   FAULT_CHANGE_AFTER_MS  add a tool `late` and send `tools/list_changed` after that long
 *   FAULT_EXIT_AFTER_MS    exit with status 5 that long after answering `tools/list` (a server
 *                          that dies on its own)
 *   FAULT_CLASH            also declare `add.one` and `add_one`, whose tools' names are the same
 *   FAULT_BIG              also declare `big`: an answer of `bytes` characters in one line (its
 *                          id last with `idLast`), for mm's limit of one message
 *   FAULT_SCHEMAS          also declare `ghostly` (`required` names a property it does not have)
 *                          and `either` (a top-level `oneOf` of two objects); both echo their arguments
 *   FAULT_INIT_RESULT      answer `initialize` with this JSON value as its result (`"ok"`, `[1]`)
 *   FAULT_SHAPES           also declare `shapeless`: answers its argument `result` as the call's
 *                          result, whatever its shape
 *   FAULT_STORM            also declare `storm`: adds `count` tools (`storm_1` …), sending one
 *                          `tools/list_changed` after each, all at once
 *   FAULT_NODE_CRASH       `crash` writes what Node writes of an uncaught RangeError, banner last
 *   FAULT_SETSID_PID_FILE  start `setsid sleep 300` (a session of its own) and write its pid there
 *
 * Run: `deno run -A tests/helpers/mcp/fault_server.ts`.
 */

const env = (name: string) => Deno.env.get(name);
const log = (line: string) => {
  const file = env("FAULT_LOG");
  if (file) Deno.writeTextFileSync(file, line + "\n", { append: true });
};
const encoder = new TextEncoder();
const send = (message: unknown) => {
  try {
    const bytes = encoder.encode(JSON.stringify(message) + "\n");
    for (let at = 0; at < bytes.length;) at += Deno.stdout.writeSync(bytes.subarray(at));
  } catch {
    // stdout closed: mm is gone
  }
};

/** The tools this server lists. */
const tools: Record<string, unknown>[] = [
  {
    name: "add",
    description: "Add two numbers. Returns their sum as text. Use it for arithmetic.",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: "untyped",
    description: "A tool whose schema lacks its type.",
    inputSchema: { properties: { text: { type: "string" } } },
  },
  { description: "A tool without a name.", inputSchema: { type: "object" } },
  {
    name: "nested",
    title: "Nested",
    description: "Files a ticket.",
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      title: "Ticket",
      properties: {
        ticket: { $ref: "#/$defs/Ticket" },
        due: { type: "string", format: "date", pattern: "^\\d{4}-\\d{2}-\\d{2}$" },
      },
      required: ["ticket"],
      additionalProperties: false,
      $defs: {
        Ticket: {
          type: "object",
          properties: {
            title: { type: "string", maxLength: 100000, examples: ["Bug"] },
            priority: { enum: ["low", "high"] },
            tags: { type: "array", items: { type: "string" } },
          },
          required: ["title"],
        },
      },
    },
  },
  {
    name: "env",
    description: "The value of an environment variable, or the names of all of them.",
    inputSchema: { type: "object", properties: { name: { type: "string" } } },
  },
  {
    name: "image",
    description: "An image.",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "structured",
    description: "Structured content without an output schema.",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "fail",
    description: "A result marked isError.",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "slow",
    description: "Answers after ms milliseconds, unless cancelled.",
    inputSchema: { type: "object", properties: { ms: { type: "integer" } }, required: ["ms"] },
  },
  { name: "hang", description: "Never answers.", inputSchema: { type: "object" } },
  { name: "crash", description: "Exits at once.", inputSchema: { type: "object" } },
];
for (let i = 1; i <= Number(env("FAULT_MANY") ?? 0); i++) {
  tools.push({
    name: `extra_${i}`,
    description: `Extra tool number ${i}, which does nothing of interest at all.`,
    inputSchema: {
      type: "object",
      properties: { value: { type: "string", description: "Any value you like." } },
    },
  });
}

if (env("FAULT_CLASH")) {
  for (const name of ["add.one", "add_one"]) {
    tools.push({ name, description: "Adds one.", inputSchema: { type: "object" } });
  }
}
if (env("FAULT_BIG")) {
  tools.push(
    {
      name: "big",
      description: "Answers a text of `bytes` characters, in one line; its id last with `idLast`.",
      inputSchema: {
        type: "object",
        properties: { bytes: { type: "integer" }, idLast: { type: "boolean" } },
      },
    },
  );
}
if (env("FAULT_SCHEMAS")) {
  tools.push({
    name: "ghostly",
    description: "Requires a property it does not have.",
    inputSchema: {
      type: "object",
      properties: { x: { type: "number" } },
      required: ["x", "nope"],
    },
  }, {
    name: "either",
    description: "Takes an id or a url.",
    inputSchema: {
      type: "object",
      oneOf: [
        { properties: { id: { type: "integer" } }, required: ["id"] },
        { properties: { url: { type: "string" }, depth: { type: "integer" } }, required: ["url"] },
      ],
    },
  });
}

if (env("FAULT_SHAPES")) {
  tools.push({
    name: "shapeless",
    description: "Answers its argument `result` as the call's result.",
    inputSchema: { type: "object", properties: { result: {} } },
  });
}
if (env("FAULT_STORM")) {
  tools.push({
    name: "storm",
    description: "Adds `count` tools, one tools/list_changed after each.",
    inputSchema: { type: "object", properties: { count: { type: "integer" } } },
  });
}

if (env("FAULT_EXIT_AT_START")) {
  console.error("starting…");
  console.error(env("FAULT_EXIT_AT_START"));
  Deno.exit(3);
}
if (env("FAULT_STUBBORN")) Deno.addSignalListener("SIGTERM", () => log("SIGTERM ignored"));
const pidFile = env("FAULT_PID_FILE");
if (pidFile) {
  const child = new Deno.Command("sleep", { args: ["1000"], stdin: "null" }).spawn();
  Deno.writeTextFileSync(pidFile, `${Deno.pid} ${child.pid}`);
}

const setsidPidFile = env("FAULT_SETSID_PID_FILE");
if (setsidPidFile) {
  // The grandchild of mm leaves the server's session and group: a kill of the group misses it.
  const script =
    `echo $$ > ${setsidPidFile}.tmp && mv ${setsidPidFile}.tmp ${setsidPidFile}; exec sleep 300`;
  new Deno.Command("setsid", { args: ["bash", "-c", script], stdin: "null" }).spawn();
  const written = () => Deno.stat(setsidPidFile).then(() => true, () => false);
  while (!await written()) await new Promise((r) => setTimeout(r, 10));
}

/** What Node writes on stderr when an uncaught RangeError ends it (Node 20's very text). */
const NODE_CRASH = `/srv/fault/index.js:1
function f(){ throw new RangeError("Invalid array length"); }
              ^

RangeError: Invalid array length
    at f (/srv/fault/index.js:1:21)
    at Object.<anonymous> (/srv/fault/index.js:2:1)
    at Module._compile (node:internal/modules/cjs/loader:1521:14)
    at Module._extensions..js (node:internal/modules/cjs/loader:1623:10)
    at Module.load (node:internal/modules/cjs/loader:1266:32)
    at Module._load (node:internal/modules/cjs/loader:1091:12)
    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)
    at node:internal/main/run_main_module:28:49

Node.js v20.20.2
`;

const slow = new Map<unknown, ReturnType<typeof setTimeout>>();

function answer(id: unknown, result: unknown) {
  send({ jsonrpc: "2.0", id, result });
}

function text(t: string) {
  return { content: [{ type: "text", text: t }] };
}

async function handle(m: Record<string, unknown>): Promise<void> {
  const params = (m.params ?? {}) as Record<string, unknown>;
  log(
    `${m.method}${
      m.method === "tools/call" ? ` ${params.name} ${JSON.stringify(params.arguments)}` : ""
    }`,
  );
  switch (m.method) {
    case "initialize": {
      const delay = Number(env("FAULT_START_DELAY_MS") ?? 0);
      if (delay) await new Promise((r) => setTimeout(r, delay));
      const odd = env("FAULT_INIT_RESULT");
      if (odd) return answer(m.id, JSON.parse(odd));
      answer(m.id, {
        protocolVersion: params.protocolVersion,
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: "fault", version: "1.0.0" },
      });
      const change = Number(env("FAULT_CHANGE_AFTER_MS") ?? 0);
      if (change) {
        setTimeout(() => {
          tools.push({ name: "late", description: "Came later.", inputSchema: { type: "object" } });
          send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
        }, change);
      }
      return;
    }
    case "tools/list": {
      const exit = env("FAULT_EXIT_AFTER_MS");
      if (exit) {
        setTimeout(() => {
          console.error("fault server: leaving on my own");
          Deno.exit(5);
        }, Number(exit));
      }
      return answer(m.id, { tools });
    }
    case "notifications/cancelled": {
      log(`cancelled ${params.requestId}`);
      clearTimeout(slow.get(params.requestId));
      return;
    }
    case "tools/call":
      return call(m.id, String(params.name), (params.arguments ?? {}) as Record<string, unknown>);
    default:
      if (m.id !== undefined) {
        send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } });
      }
  }
}

function call(id: unknown, name: string, args: Record<string, unknown>): void {
  switch (name) {
    case "add":
      return answer(id, text(`${Number(args.a) + Number(args.b)}`));
    case "untyped":
    case "nested":
    case "ghostly":
    case "either":
      return answer(id, text(JSON.stringify(args)));
    case "env":
      return answer(
        id,
        text(
          typeof args.name === "string"
            ? env(args.name) ?? "(unset)"
            : Object.keys(Deno.env.toObject()).sort().join(" "),
        ),
      );
    case "image":
      return answer(id, {
        content: [
          { type: "text", text: "Here it is:" },
          { type: "image", mimeType: "image/png", data: btoa("x".repeat(34 * 1024)) },
        ],
      });
    case "structured":
      return answer(id, { content: [], structuredContent: { temperature: 21, unit: "C" } });
    case "fail":
      return answer(id, { ...text("the disk is full"), isError: true });
    case "slow":
      slow.set(id, setTimeout(() => answer(id, text("slept")), Number(args.ms)));
      return;
    case "hang":
      return;
    case "big": {
      const result = text("b".repeat(Number(args.bytes)));
      if (args.idLast) return send({ jsonrpc: "2.0", result, id });
      return answer(id, result);
    }
    case "shapeless":
      return answer(id, args.result);
    case "storm": {
      const count = Number(args.count);
      for (let i = 1; i <= count; i++) {
        tools.push({
          name: `storm_${i}`,
          description: "Blown in.",
          inputSchema: { type: "object" },
        });
        send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
      }
      return answer(id, text("stormed"));
    }
    case "crash":
      if (env("FAULT_NODE_CRASH")) {
        Deno.stderr.writeSync(encoder.encode(NODE_CRASH));
        Deno.exit(1);
      }
      console.error("fault server: crashing on purpose");
      Deno.exit(7);
      return;
    default:
      send({ jsonrpc: "2.0", id, error: { code: -32602, message: `Tool ${name} not found` } });
  }
}

const decoder = new TextDecoder();
let buffer = "";
for await (const chunk of Deno.stdin.readable) {
  buffer += decoder.decode(chunk, { stream: true });
  let i: number;
  while ((i = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, i).trim();
    buffer = buffer.slice(i + 1);
    if (line) handle(JSON.parse(line));
  }
}
log("stdin closed");
// A stubborn server lives on after its stdin closed; the others exit, as the SDK's servers do.
if (env("FAULT_STUBBORN")) setInterval(() => {}, 1000);
else Deno.exit(0);

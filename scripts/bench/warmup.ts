/**
 * `deno run -A scripts/bench/warmup.ts [RUNS]`: the warm cache (lib/provider/warmup.ts) against the
 * scripted server speaking llama.cpp: how many bytes of the first real request the warm-up sent
 * ahead (the system message and the tool declarations, the same bytes), how many are left for the
 * server to prefill when the user's prompt comes, and how long the warm-up takes to reach the
 * server. Its real effect, the prefill time saved, needs a real llama-server, which this machine
 * does not have (docs/performance.md, "The warm cache"); not a test.
 */

import { defaultConfig } from "../../lib/config/config.ts";
import { systemPrompt } from "../../lib/agent/prompt.ts";
import { toolSchema } from "../../lib/agent/schema.ts";
import { createClient } from "../../lib/provider/client.ts";
import { Warmup } from "../../lib/provider/warmup.ts";
import { BUILTIN_TOOLS } from "../../tools/mod.ts";
import { ScriptedServer } from "../../tests/helpers/server/mod.ts";
import { summary } from "./_measure.ts";

const RUNS = Number(Deno.args[0] ?? 20);
const MODEL = "bench";
const PROMPT = "What does lib/agent/agent.ts do?";

const server = ScriptedServer.start();
const config = { ...defaultConfig(), provider: "llamacpp" as const, url: server.url };
const client = await createClient(config, MODEL, {});
const system = { role: "system" as const, content: systemPrompt({ cwd: "/work/p", os: "linux" }) };
const tools = BUILTIN_TOOLS.filter((t) => t.declared(config)).map((t) => toolSchema(t, config));

/** The bytes of a request's messages and tools, as JSON: what the server renders and prefills. */
const bytes = (body: { messages: unknown; tools?: unknown }) =>
  new TextEncoder().encode(JSON.stringify({ messages: body.messages, tools: body.tools })).length;

const reach: number[] = [];
let warmBytes = 0;
let realBytes = 0;
for (let i = 0; i < RUNS; i++) {
  const warmup = new Warmup(client);
  const began = performance.now();
  warmup.warm({ messages: [system], tools });
  const warm = await server.warmup(MODEL, i);
  reach.push(performance.now() - began);
  await warmup.settled();
  warmBytes = bytes(warm.body);
  server.script(MODEL, [{ text: "It runs the turn." }]);
  await client.stream({
    messages: [system, { role: "user", content: PROMPT }],
    tools,
    signal: new AbortController().signal,
    onDelta: () => {},
  });
  realBytes = bytes(server.chats(MODEL).at(-1)!.body);
}
await server.close();

const shared = warmBytes - new TextEncoder().encode(JSON.stringify("Hi")).length;
const ms = summary(reach);
console.log("| warm cache (scripted llama.cpp server) | figure |");
console.log("| --- | ---: |");
console.log(`| the first real request: messages and tools | ${realBytes} bytes |`);
console.log(`| sent ahead by the warm-up (the same bytes) | ${shared} bytes |`);
console.log(`| left to prefill when the prompt comes | ${realBytes - shared} bytes |`);
console.log(`| warm-up reaches the server, median | ${ms.median.toFixed(1)} ms |`);
console.log(`\n${RUNS} runs, load average ${Deno.loadavg()[0].toFixed(1)}`);

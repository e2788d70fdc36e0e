/** `mm doctor`'s MCP checks, against real servers and the scripted llama-server (lib/commands/doctor_mcp.ts). */

import { type Config, defaultConfig } from "../../lib/config/config.ts";
import { type Check, mcpChecks } from "../../lib/commands/doctor_mcp.ts";
import { createClient } from "../../lib/provider/client.ts";
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { faultConfig, serverConfig } from "../helpers/mcp/servers.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

/** The lines `mcpChecks` prints, checks as `mm doctor` prints them. */
async function doctor(config: Config, withChat = false): Promise<string[]> {
  const lines: string[] = [];
  const chat = withChat ? await createClient(config, "llama") : undefined;
  await mcpChecks(config, "/tmp", chat, {
    check: (c: Check) => lines.push(c.ok ? `✔ ${c.text}` : `✘ ${c.text} — ${c.fix}`),
    line: (l) => lines.push(l),
  });
  return lines;
}

function config(over: Partial<Config>): Config {
  return { ...defaultConfig(), provider: "llamacpp", url: server.url, model: "llama", ...over };
}

Deno.test("mm doctor: MCP servers", async (t) => {
  await t.step("each server, its tools with their sizes and what sanitising changed", async () => {
    const lines = await doctor(config({
      mcpServers: {
        fault: faultConfig({}, { tools: ["add", "nested", "untyped"] }),
        ghost: serverConfig({ command: ["no-such-mcp-server", "--stdio"] }),
      },
    }));
    assertMatch(
      lines[0],
      /^✔ MCP server fault: 3 tools \(of 10 listed\), \d+ characters of declarations$/,
    );
    assertMatch(lines[1], /^ {4}add · \d+ characters · sanitised: description shortened$/);
    assertMatch(
      lines[2],
      /^ {4}untyped · \d+ characters$/,
    );
    assertMatch(
      lines[3],
      /^ {4}nested · \d+ characters · sanitised: \$ref inlined, .*format dropped, pattern dropped/,
    );
    assertEquals(lines.slice(4, 6), [
      '    untyped: input schema without "type": "object" — repaired',
      "    tool #3 dropped: it has no name",
    ]);
    assertEquals(
      lines[6],
      "✘ MCP server ghost: did not start: no-such-mcp-server cannot be started: executable file not found in $PATH — run `no-such-mcp-server --stdio` in a terminal to see why, or fix mcpServers.ghost",
    );
    assertMatch(
      lines[7],
      /^✔ MCP tools: 3 declared one by one, \d+ characters \(mcp.budget 4000, mcp.maxTools 12\)$/,
    );
  });

  await t.step("catalog mode said", async () => {
    const lines = await doctor(
      config({ mcpServers: { fault: faultConfig({ FAULT_MANY: "20" }) } }),
    );
    assertMatch(
      lines.at(-1)!,
      /^✔ MCP tools: 30 tools, [\d,]+ characters: catalog mode, mcp_tools and mcp_call stand for them \(mcp.budget 4000, mcp.maxTools 12\)$/,
    );
  });

  await t.step("llama-server takes the grammar: one request with the tools", async () => {
    const before = server.chats("llama").length;
    server.answer = () => ({ text: "OK" });
    const lines = await doctor(
      config({ mcpServers: { fault: faultConfig({}, { tools: ["add", "nested"] }) } }),
      true,
    );
    server.answer = undefined;
    assertEquals(
      lines.at(-1),
      "✔ MCP tools on llama-server: it takes the grammar of the 2 declared",
    );
    const sent = server.chats("llama").slice(before);
    assertEquals(sent.length, 1);
    assertEquals(
      sent[0].body.tools.map((x: { function: { name: string } }) => x.function.name),
      ["fault_add", "fault_nested"],
    );
  });

  await t.step("a refused grammar: the tool at fault found and named, with the fix", async () => {
    server.answer = (body) =>
      body.tools?.some((x: { function: { name: string } }) => x.function.name === "fault_nested")
        ? { status: 400, body: { error: { code: 400, message: "failed to parse grammar" } } }
        : { text: "OK" };
    const lines = await doctor(
      config({
        mcp: { catalog: false, budget: 4000, maxTools: 12 },
        mcpServers: { fault: faultConfig({}, { exclude: ["crash", "hang"] }) },
      }),
      true,
    );
    server.answer = undefined;
    assertMatch(
      lines.at(-1)!,
      /^✘ MCP tools on llama-server: it refuses the grammar of fault_nested \(.*failed to parse grammar.*\) — leave it out: add "nested" to mcpServers.fault.exclude$/,
    );
    assertEquals(lines.filter((l) => l.startsWith("✘")).length, 1);
  });

  await t.step("no servers: nothing", async () => {
    assertEquals(await doctor(config({})), []);
  });
});

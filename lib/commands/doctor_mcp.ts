/**
 * `mm doctor`'s MCP checks (docs/mcp.md, "mm doctor"): every enabled server started, its tools
 * listed with the characters each declaration takes and what sanitising changed, how they are
 * declared (one by one, or the catalog), and — for llama.cpp, whose grammars refuse some schemas —
 * one request with them: a refusal is narrowed down to the tools at fault, each named with the line
 * that leaves it out.
 */

import { toolSchema } from "../agent/schema.ts";
import type { Config, McpServerConfig } from "../config/config.ts";
import { changesText } from "../mcp/sanitize.ts";
import type { McpServer } from "../mcp/server.ts";
import { declarable, McpServers, unmatchedGlobs } from "../mcp/servers.ts";
import { unmatchedDetail } from "../mcp/status.ts";
import type { ChatClient, ToolSchema } from "../provider/chat.ts";
import { ProviderError } from "../provider/errors.ts";
import type { AnyTool } from "../tool.ts";
import { declarationSize, declaredTools, mcpTool, mcpTools } from "../../tools/mod.ts";

/** One check's verdict, as `mm doctor` prints it (its `Check`). */
export interface Check {
  ok: boolean;
  text: string;
  fix?: string;
}

/** How the MCP checks report: a check's line, or a detail line under it. */
export interface McpReport {
  check(c: Check): void;
  line(text: string): void;
}

/** What to do when a server did not start. */
export function startFix(name: string, config: McpServerConfig): string {
  if (config.type !== "stdio") {
    return `check mcpServers.${name}.url and its headers, or start the server`;
  }
  return `run \`${config.command.join(" ")}\` in a terminal to see why, or fix mcpServers.${name}`;
}

/** A number with its thousands grouped: `12,345`. */
function grouped(n: number): string {
  return n.toLocaleString("en-US");
}

/** The detail line of one tool: its declaration's size and what was changed in it. */
function toolLine(server: McpServer, tool: AnyTool, name: string): string {
  const listed = server.listing.tools.find((t) => t.name === name);
  const changed = listed ? changesText(listed.changes) : "";
  return `    ${name} · ${grouped(declarationSize(tool))} characters${
    changed ? ` · sanitised: ${changed}` : ""
  }`;
}

/**
 * Starts the servers, reports each and their declarations, and asks llama.cpp (through `chat`,
 * when the model was found) to take their grammar; closes the servers before it returns.
 */
export async function mcpChecks(
  config: Config,
  cwd: string,
  chat: ChatClient | undefined,
  report: McpReport,
): Promise<void> {
  if (!Object.values(config.mcpServers).some((s) => s.enabled)) return;
  const set = new McpServers(config.mcpServers, { cwd, env: readEnv() });
  try {
    await set.whenSettled();
    for (const server of set.servers) {
      const state = server.state;
      if (state.kind !== "running") {
        const reason = state.kind === "failed" || state.kind === "dead" ? state.reason : state.kind;
        report.check({
          ok: false,
          text: `MCP server ${server.name}: did not start: ${reason}`,
          fix: startFix(server.name, server.config),
        });
        continue;
      }
      const listed = server.listing.tools;
      const kept = declarable(server.name, server.config, listed);
      const tools = kept.map((t) => mcpTool(server, t));
      const size = tools.reduce((n, t) => n + declarationSize(t), 0);
      const of = kept.length === listed.length ? "" : ` (of ${listed.length} listed)`;
      report.check({
        ok: true,
        text: `MCP server ${server.name}: ${kept.length} tool${
          kept.length === 1 ? "" : "s"
        }${of}, ${grouped(size)} characters of declarations`,
      });
      tools.forEach((tool, i) => report.line(toolLine(server, tool, kept[i].name)));
      for (const u of unmatchedGlobs(server.config, listed.map((t) => t.name))) {
        report.check({
          ok: false,
          text: unmatchedDetail(server.name, u, listed.length),
          fix: `fix mcpServers.${server.name}.${u.key}`,
        });
      }
      for (const note of server.listing.notes) report.line(`    ${note}`);
    }
    const builtins = declaredTools(config).map((t) => t.name);
    const declared = mcpTools(set.entries(), config.mcp, builtins);
    for (const warning of declared.dropped) report.line(`    ${warning}`);
    if (!declared.count) return;
    const limits = `mcp.budget ${config.mcp.budget}, mcp.maxTools ${config.mcp.maxTools}`;
    report.check({
      ok: true,
      text: declared.catalog
        ? `MCP tools: ${declared.count} tools, ${
          grouped(declared.size)
        } characters: catalog mode, mcp_tools and mcp_call stand for them (${limits})`
        : `MCP tools: ${declared.count} declared one by one, ${
          grouped(declared.size)
        } characters (${limits})`,
    });
    if (config.provider === "llamacpp" && chat) {
      for (const c of await grammarChecks(chat, declared.tools, set, config)) report.check(c);
    }
  } finally {
    await set.close();
  }
}

/** mm's environment, or none without the env permission. */
function readEnv(): Record<string, string> {
  try {
    return Deno.env.toObject();
  } catch {
    return {};
  }
}

/** Whether the server takes a request declaring `tools` (its first token is enough). */
async function takes(
  chat: ChatClient,
  tools: ToolSchema[],
  timeout: number,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  try {
    await chat.stream({
      messages: [{ role: "user", content: "Say OK." }],
      tools,
      signal: controller.signal,
      onDelta: () => controller.abort(),
    });
    return { ok: true };
  } catch (e) {
    if (controller.signal.aborted) return { ok: true };
    if (e instanceof ProviderError && e.kind !== "unreachable") {
      return { ok: false, message: e.message };
    }
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * llama-server's verdict on the declared MCP tools: one request with all of them; when refused,
 * halves asked again until each tool at fault is found alone.
 */
async function grammarChecks(
  chat: ChatClient,
  tools: AnyTool[],
  set: McpServers,
  config: Config,
): Promise<Check[]> {
  const schemas = tools.map((t) => toolSchema(t, config));
  const timeout = config.watchdogTimeout;
  const first = await takes(chat, schemas, timeout);
  if (first.ok) {
    return [{
      ok: true,
      text: `MCP tools on llama-server: it takes the grammar of the ${tools.length} declared`,
    }];
  }
  const faulty: { tool: AnyTool; message: string }[] = [];
  const search = async (part: number[]): Promise<void> => {
    const verdict = await takes(chat, part.map((i) => schemas[i]), timeout);
    if (verdict.ok) return;
    if (part.length === 1) {
      faulty.push({ tool: tools[part[0]], message: verdict.message });
      return;
    }
    const half = Math.ceil(part.length / 2);
    await search(part.slice(0, half));
    await search(part.slice(half));
  };
  await search(tools.map((_, i) => i));
  if (!faulty.length) {
    return [{
      ok: false,
      text:
        `MCP tools on llama-server: it refuses them together, yet takes each alone (${first.message})`,
      fix: "declare fewer: set tools or exclude on the servers, or mcp.catalog: true",
    }];
  }
  return faulty.map(({ tool, message }) => {
    const owner = set.servers.find((s) =>
      s.listing.tools.some((t) => tool.name === mcpTool(s, t).name)
    );
    const own = owner?.listing.tools.find((t) => tool.name === mcpTool(owner, t).name)?.name;
    return {
      ok: false,
      text: `MCP tools on llama-server: it refuses the grammar of ${tool.name} (${message})`,
      fix: owner && own
        ? `leave it out: add "${own}" to mcpServers.${owner.name}.exclude`
        : "leave it out with the exclude of its server",
    };
  });
}

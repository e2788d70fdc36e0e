/**
 * What the user is told of the MCP servers (docs/mcp.md, "Never silent"): the banner's line per
 * server, the warning of a server that did not start or stopped, the notice of a changed tool
 * list, of the first turn waiting, of catalog mode.
 */

import type { McpOptions } from "../config/config.ts";
import { formatDuration } from "../config/duration.ts";
import type { McpEvent, UnmatchedGlob } from "./servers.ts";
import { warningText } from "../presentation.ts";

/** The emoji of the MCP servers' lines. */
export const PLUG = "🔌";

/** The banner's line of a running server: `🔌 fs · 14 tools`, `🔌 fs · 3 of 14 tools`. */
export function serverLine(name: string, declared: number, listed: number): string {
  const of = declared === listed ? "" : `${declared} of `;
  return `${PLUG} ${name} · ${of}${listed} tool${listed === 1 ? "" : "s"}`;
}

/** The warning of a server that did not start. */
export function notStartedText(name: string, reason: string): string {
  return warningText(`MCP server ${name} did not start: ${reason}`);
}

/** The warning of a server that stopped after starting. */
export function stoppedText(name: string, reason: string): string {
  return warningText(
    `MCP server ${name} stopped: ${reason} — its tools now answer that it is not running`,
  );
}

/** The warning of a tool its server's listing dropped. */
export function droppedText(name: string, note: string): string {
  return warningText(`MCP server ${name}: ${note}`);
}

/** The notice of a server that changed its tools. */
export function changedText(name: string, listed: number): string {
  return `${PLUG} ${name} changed its tools (${listed} now): the new list applies to the next conversation (/new)`;
}

/** The notice while the first turn waits for servers still starting. */
export function waitingText(names: string[], longest: number): string {
  return `${PLUG} waiting for MCP server${names.length === 1 ? "" : "s"} ${
    names.join(", ")
  } to start (up to ${formatDuration(longest)})`;
}

/** The notice that catalog mode is on, and why. */
export function catalogText(count: number, size: number, options: McpOptions): string {
  const why = options.catalog === true
    ? "mcp.catalog: true"
    : count > options.maxTools
    ? `${count} tools, over mcp.maxTools ${options.maxTools}`
    : `${size} characters of declarations, over mcp.budget ${options.budget}`;
  return `${PLUG} catalog mode: mcp_tools and mcp_call stand for ${count} MCP tools (${why})`;
}

/**
 * The warning for a glob of a server's allow or deny list that matches none of its tools:
 * `MCP server ev: tools entry "ech" matches none of its 13 tools — did you mean "echo"?` in {@linkcode warningText}'s brackets.
 */
export function unmatchedText(server: string, u: UnmatchedGlob, listed: number): string {
  return warningText(unmatchedDetail(server, u, listed));
}

/** What {@linkcode unmatchedText} says, without the warning's brackets (mm doctor's `✘` line). */
export function unmatchedDetail(server: string, u: UnmatchedGlob, listed: number): string {
  const tools = `${listed} tool${listed === 1 ? "" : "s"}`;
  if (u.glob === undefined) return `MCP server ${server}: tools: [] keeps none of its ${tools}`;
  return `MCP server ${server}: ${u.key} entry "${u.glob}" matches none of its ${tools}${
    u.near ? ` — did you mean "${u.near}"?` : ""
  }`;
}

/** The lines of an event: what a front end shows, and whether each is a warning. */
export function eventLines(e: McpEvent): { text: string; warning: boolean }[] {
  switch (e.type) {
    case "ready":
      return [
        { text: serverLine(e.server, e.declared, e.listed), warning: false },
        ...e.dropped.map((note) => ({ text: droppedText(e.server, note), warning: true })),
        ...e.unmatched.map((u) => ({ text: unmatchedText(e.server, u, e.listed), warning: true })),
      ];
    case "down":
      return [{
        text: e.started ? stoppedText(e.server, e.reason) : notStartedText(e.server, e.reason),
        warning: true,
      }];
    case "changed":
      return [{ text: changedText(e.server, e.listed), warning: false }];
  }
}

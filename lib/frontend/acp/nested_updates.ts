/**
 * An asked agent's work in the editor (tools.md, `ask_agent`, Display): its text and thinking as
 * chunks of the asking session, its tool calls as tool calls of their own, with ids of this session
 * and the title `<agent> · <title>`. Every one of these updates carries `_meta.mm.nested` (the asked
 * agent's name): an editor ignores it, an mm that asked this one shows them but never takes them for
 * this agent's own answer (docs/acp.md, "Agents that ask agents").
 */

import type { SessionUpdate, ToolCallContent } from "npm:@agentclientprotocol/sdk@2.4.0";
import type { NestedEvent } from "../../tool.ts";
import { nestedMeta } from "../../acp/mm_ext.ts";
import { diffContent } from "./updates.ts";

/** An asked agent's text or thinking as a chunk of this session, marked as its. */
export function nestedChunk(e: Extract<NestedEvent, { type: "text" | "thought" }>): SessionUpdate {
  return {
    sessionUpdate: e.type === "text" ? "agent_message_chunk" : "agent_thought_chunk",
    content: { type: "text", text: e.text },
    _meta: nestedMeta(e.agent),
  };
}

/** The `tool_call` that shows an asked agent's call under `toolCallId`. */
export function nestedCallStart(
  e: Extract<NestedEvent, { type: "tool_call" }>,
  toolCallId: string,
): SessionUpdate {
  return {
    sessionUpdate: "tool_call",
    toolCallId,
    title: e.title,
    kind: e.kind,
    status: "pending",
    ...(e.input !== undefined ? { rawInput: e.input } : {}),
    _meta: nestedMeta(e.agent),
  };
}

/** The `tool_call_update` that passes on an asked agent's update of that call, its locations too. */
export function nestedCallUpdate(
  e: Extract<NestedEvent, { type: "tool_update" }>,
  toolCallId: string,
): SessionUpdate {
  const content: ToolCallContent[] = e.diff ? [diffContent(e.diff)] : [];
  if (e.output !== undefined) {
    content.push({ type: "content", content: { type: "text", text: e.output } });
  }
  return {
    sessionUpdate: "tool_call_update",
    toolCallId,
    ...(e.status ? { status: e.status } : {}),
    ...(e.title ? { title: e.title } : {}),
    ...(content.length ? { content } : {}),
    ...(e.locations?.length ? { locations: e.locations.map((path) => ({ path })) } : {}),
    _meta: nestedMeta(e.agent),
  };
}

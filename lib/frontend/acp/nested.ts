/**
 * An asked agent's tool calls in the editor (tools.md, `ask_agent`, Display): tool calls of their
 * own in the asking session, with ids of this session and the title `<agent> · <title>`.
 */

import type { SessionUpdate, ToolCallContent } from "npm:@agentclientprotocol/sdk@2.4.0";
import type { NestedEvent } from "../../tool.ts";
import { diffContent } from "./updates.ts";

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
  };
}

/** The `tool_call_update` that passes on an asked agent's update of that call. */
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
  };
}

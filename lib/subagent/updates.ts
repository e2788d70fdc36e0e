/**
 * An asked agent's `session/update` notifications as the steps the asking agent's front ends show
 * (tools.md, `ask_agent`, Display): text, thinking, tool calls titled `<agent> · <title>`.
 */

import type { SessionUpdate, ToolCallContent } from "npm:@agentclientprotocol/sdk@2.4.0";
import { isErrorChunk } from "../acp/mm_ext.ts";
import type { FileDiff, NestedEvent, ToolKind } from "../tool.ts";

/** mm's kind and the terminal's emoji for each ACP tool kind (the child's calls carry no emoji). */
const KINDS: Record<string, { kind: ToolKind; emoji: string }> = {
  read: { kind: "read", emoji: "📝" },
  edit: { kind: "edit", emoji: "📝" },
  delete: { kind: "edit", emoji: "📝" },
  move: { kind: "edit", emoji: "📝" },
  search: { kind: "search", emoji: "🔎" },
  execute: { kind: "execute", emoji: "🛠️" },
  fetch: { kind: "fetch", emoji: "🌐" },
};

/** The kind and emoji of an ACP tool kind; anything else is `other`, drawn `🧰`. */
export function nestedKind(kind: string | null | undefined): { kind: ToolKind; emoji: string } {
  return KINDS[kind ?? ""] ?? { kind: "other", emoji: "🧰" };
}

/** The step an update of agent `agent` shows, or undefined for updates that show nothing. */
export function nestedEvent(agent: string, u: SessionUpdate): NestedEvent | undefined {
  switch (u.sessionUpdate) {
    case "agent_message_chunk":
    case "agent_thought_chunk": {
      if (u.content.type !== "text" || u.content.text === "" || isErrorChunk(u)) return undefined;
      const type = u.sessionUpdate === "agent_message_chunk" ? "text" : "thought";
      return { agent, type, text: u.content.text };
    }
    case "tool_call": {
      const { kind, emoji } = nestedKind(u.kind);
      return {
        agent,
        type: "tool_call",
        id: u.toolCallId,
        title: `${agent} · ${u.title}`,
        kind,
        emoji,
        ...(u.rawInput !== undefined ? { input: u.rawInput } : {}),
      };
    }
    case "tool_call_update": {
      const output = contentText(u.content);
      const diff = contentDiff(u.content);
      const locations = (u.locations ?? []).map((l) => l.path);
      return {
        agent,
        type: "tool_update",
        id: u.toolCallId,
        ...(u.status ? { status: u.status } : {}),
        ...(u.title ? { title: `${agent} · ${u.title}` } : {}),
        ...(output !== undefined ? { output } : {}),
        ...(diff ? { diff } : {}),
        ...(locations.length ? { locations } : {}),
      };
    }
    default:
      return undefined;
  }
}

/** The text blocks of a call's content, joined; undefined when it has none. */
function contentText(content: ToolCallContent[] | null | undefined): string | undefined {
  const texts = (content ?? []).flatMap((c) =>
    c.type === "content" && c.content.type === "text" ? [c.content.text] : []
  );
  return texts.length ? texts.join("\n") : undefined;
}

/**
 * The first diff of a call's content, with what it replaces when a text block says so
 * (`replaces a binary file of 3000 bytes`, as mm's permission dialogs put it before the diff).
 */
export function contentDiff(content: ToolCallContent[] | null | undefined): FileDiff | undefined {
  let replaces: string | undefined;
  for (const c of content ?? []) {
    if (
      c.type === "content" && c.content.type === "text" && c.content.text.startsWith("replaces ")
    ) {
      replaces = c.content.text.slice("replaces ".length);
    }
    if (c.type !== "diff") continue;
    return {
      path: c.path,
      ...(typeof c.oldText === "string" ? { oldText: c.oldText } : {}),
      newText: c.newText,
      ...(replaces ? { replaces } : {}),
    };
  }
  return undefined;
}

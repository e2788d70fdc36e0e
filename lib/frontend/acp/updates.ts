/**
 * What an editor sees of a conversation: the core's events (live, or a session file's history
 * replayed by lib/agent/replay.ts) turned into ACP `session/update` payloads, and an ACP prompt
 * turned into the text the model reads (docs/acp.md).
 */

import { relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type {
  ContentBlock,
  SessionUpdate,
  ToolCallContent,
  ToolKind as AcpToolKind,
} from "npm:@agentclientprotocol/sdk@2.4.0";
import type { AgentEvent } from "../../agent/mod.ts";
import type { FileDiff } from "../../tool.ts";

/** The core's `tool_call` event. */
export type ToolCallEvent = Extract<AgentEvent, { type: "tool_call" }>;

/** The core's `tool_result` event. */
export type ToolResultEvent = Extract<AgentEvent, { type: "tool_result" }>;

/** A file's change as ACP diff content. */
export function diffContent(diff: FileDiff): ToolCallContent {
  return {
    type: "diff",
    path: diff.path,
    ...(diff.oldText !== undefined ? { oldText: diff.oldText } : {}),
    newText: diff.newText,
  };
}

/**
 * What a permission dialog shows of a file change: its diff, after a line saying what it replaces
 * when that is no text (a binary file), so the dialog does not read as a new file's.
 */
export function changeContent(diff: FileDiff): ToolCallContent[] {
  const note: ToolCallContent[] = diff.replaces
    ? [{ type: "content", content: { type: "text", text: `replaces ${diff.replaces}` } }]
    : [];
  return [...note, diffContent(diff)];
}

/**
 * The title of a tool call in the editor: `<name>: <summary>`, the terminal's display line without
 * its emoji (`bash: ls -la`, `read_file: src/main.ts`, `<declared tool>: <argv>`), or the name alone
 * when the summary is empty. The summary is kept whole: a several-line command shows every line.
 */
export function toolTitle(name: string, summary: string): string {
  return summary.trim() === "" ? name : `${name}: ${summary}`;
}

/** An `agent_message_chunk` or `agent_thought_chunk` (or a replayed `user_message_chunk`). */
export function textChunk(
  kind: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk",
  text: string,
): SessionUpdate {
  return { sessionUpdate: kind, content: { type: "text", text } };
}

/** The `tool_call` that announces a call: pending until it runs (or waits for permission). */
export function toolCallStart(e: ToolCallEvent, toolCallId: string): SessionUpdate {
  return {
    sessionUpdate: "tool_call",
    toolCallId,
    title: toolTitle(e.name, e.summary),
    kind: e.kind satisfies AcpToolKind,
    status: "pending",
    rawInput: e.input,
  };
}

/** The `tool_call_update` that says the call started running. */
export function toolCallRunning(toolCallId: string): SessionUpdate {
  return { sessionUpdate: "tool_call_update", toolCallId, status: "in_progress" };
}

/**
 * The `tool_call_update` that ends a call: `completed` or `failed`; for a file change a `diff` block
 * (no `oldText` for a new file) before the output as text; the absolute paths the tool reported as
 * `locations`. An output the terminal does not echo (read_skill's content) is left out unless the
 * call failed. `title` is sent again: the permission dialog of ask_user may have replaced it.
 */
export function toolCallEnd(
  e: ToolResultEvent,
  toolCallId: string,
  title: string,
  locations: string[] = [],
): SessionUpdate {
  const content: ToolCallContent[] = e.diff ? [diffContent(e.diff)] : [];
  if (e.preview !== false || e.failed) {
    content.push({ type: "content", content: { type: "text", text: e.output } });
  }
  return {
    sessionUpdate: "tool_call_update",
    toolCallId,
    title,
    status: e.failed ? "failed" : "completed",
    content,
    ...(locations.length ? { locations: locations.map((path) => ({ path })) } : {}),
    rawOutput: { output: e.output },
  };
}

/**
 * The text the model reads for an ACP prompt. Text blocks are joined as they come (an editor puts
 * a mention between two text blocks); a `resource_link` becomes its path (relative to `cwd` when
 * inside it) so the model can read it; an embedded text `resource` becomes its path and content in
 * a fenced block; images, audio and binary resources, which mm does not advertise, become a note.
 * A path or a note with text on either side and no space between gets one (`read src/a.ts`).
 */
export function promptText(blocks: ContentBlock[], cwd: string): string {
  const pieces = blocks.map((b) => {
    switch (b.type) {
      case "text":
        return b.text;
      case "resource_link":
        return shownPath(b.uri, cwd);
      case "resource": {
        const r = b.resource;
        const path = shownPath(r.uri, cwd);
        if ("text" in r && typeof r.text === "string") {
          return `\n${path}:\n\`\`\`\n${r.text}${r.text.endsWith("\n") ? "" : "\n"}\`\`\`\n`;
        }
        return `${path} [binary content left out: mm reads text only]`;
      }
      default:
        return `[${b.type} left out: mm reads text only]`;
    }
  });
  // Two text blocks join as they come; a link or a note beside other text gets a space if it has none.
  return pieces.reduce((text, piece, i) => {
    const joined = blocks[i].type === "text" && blocks[i - 1]?.type === "text";
    // No space before punctuation or after an opening bracket: `(see a.ts).`
    const punctuation = blocks[i].type === "text" && /^[,.;:!?)\]}]/.test(piece);
    const spaced = joined || text === "" || /[\s([{]$/.test(text) || /^\s/.test(piece) ||
      punctuation;
    return text + (spaced ? "" : " ") + piece;
  }, "");
}

/**
 * The files of a prompt's `resource_link` blocks (`file://` URIs), as paths relative to `cwd` when
 * inside it: they are attached as `@` mentions are (lib/agent/attach.ts), the fragment left out.
 */
export function linkedPaths(blocks: ContentBlock[], cwd: string): string[] {
  return blocks.flatMap((b) => {
    if (b.type !== "resource_link" || !b.uri.startsWith("file:")) return [];
    const hash = b.uri.indexOf("#");
    return [shownPath(hash >= 0 ? b.uri.slice(0, hash) : b.uri, cwd)];
  });
}

/**
 * A `file://` URI as a path, relative to `cwd` when it lies inside (`.` for `cwd` itself), its
 * fragment kept (`src/a.ts#L2`); any other URI as it is.
 */
function shownPath(uri: string, cwd: string): string {
  if (!uri.startsWith("file:")) return uri;
  const hash = uri.indexOf("#");
  const fragment = hash >= 0 ? uri.slice(hash) : "";
  let path: string;
  try {
    path = fileURLToPath(hash >= 0 ? uri.slice(0, hash) : uri);
  } catch {
    return uri;
  }
  const rel = relative(resolve(cwd), path);
  if (rel === "") return `.${fragment}`;
  const inside = !rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep);
  return (inside ? rel : path) + fragment;
}

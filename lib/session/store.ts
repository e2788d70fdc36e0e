/** Session files (mm.md §5): one JSON file per conversation, written atomically after every step. */

import { basename, join } from "node:path";
import { writeAtomic } from "../atomic.ts";
import { COMPACT_WRAPPER } from "../history.ts";
import type { Message } from "../history.ts";
import { redact } from "../secrets.ts";
import { UserError } from "../presentation.ts";

/** Where a failure happened. */
export type ErrorWhere = "generation" | "tool" | "hook" | "session";

/** One failure that ended or marred a turn. */
export interface SessionError {
  time: string;
  where: ErrorWhere;
  message: string;
}

/** A message of the history with the turn it belongs to (1 for the first question). */
export type SessionMessage = Message & { turn: number };

/** The file's content, exactly as mm.md §5 lists it. */
export interface SessionFile {
  id: string;
  created: string;
  updated: string;
  cwd: string;
  provider: string;
  model: string;
  messages: SessionMessage[];
  errors: SessionError[];
}

/** A session file that cannot be used: reported, never overwritten. */
export class SessionFileError extends UserError {
  /** The file's path. */
  readonly path: string;

  /** Builds the error for `path`. */
  constructor(path: string, reason: string) {
    super(`the session file ${path} cannot be read (${reason}) — it was left untouched`, 2);
    this.name = "SessionFileError";
    this.path = path;
  }
}

/** The sessions directory of `dir` (from the agent file; "" the state folder): lib/session/dirs.ts. */
export { sessionsDir } from "./dirs.ts";

/** A new session id: sortable by time, unique across concurrent runs (`20261202-150600-a1b2c3`). */
export function newSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const random = crypto.getRandomValues(new Uint8Array(3));
  return `${stamp}-${Array.from(random, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** The path of session `id` in `dir`. */
export function sessionPath(dir: string, id: string): string {
  return join(dir, `${id}.json`);
}

/** Whether `id` is a plain session id (no path separators, no dots leading out of `dir`). */
export function isSessionId(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(id);
}

/**
 * Writes the session through a temporary file and a rename (lib/atomic.ts): a crash never leaves
 * half a file, and a failed write (a full disk) leaves no temporary file behind.
 */
export async function saveSession(dir: string, session: SessionFile): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  // A secret a tool printed (or an error quoted) is not kept (lib/secrets.ts).
  const text = redact(JSON.stringify(session, null, 1)) + "\n";
  await writeAtomic(sessionPath(dir, session.id), text);
}

/** Reads and checks one session file. Throws SessionFileError when it cannot be used. */
export async function loadSession(path: string): Promise<SessionFile> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    throw new SessionFileError(
      path,
      e instanceof Deno.errors.NotFound ? "no such file" : (e as Error).message,
    );
  }
  return parseSession(path, text);
}

/** Checks the shape of a session file's text. */
export function parseSession(path: string, text: string): SessionFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new SessionFileError(path, `not valid JSON: ${(e as Error).message}`);
  }
  const s = data as Partial<SessionFile>;
  if (
    !s || typeof s !== "object" || typeof s.id !== "string" || !Array.isArray(s.messages) ||
    typeof s.created !== "string" || typeof s.updated !== "string"
  ) {
    throw new SessionFileError(path, "not a session: id, created, updated or messages is missing");
  }
  // mm finds a session by its id: a copy under another name would be written back elsewhere.
  const name = basename(path, ".json");
  if (path.endsWith(".json") && s.id !== name) {
    throw new SessionFileError(path, `its id "${s.id}" is not its file name, ${name}`);
  }
  return {
    id: s.id,
    created: s.created,
    updated: s.updated,
    cwd: typeof s.cwd === "string" ? s.cwd : "",
    provider: typeof s.provider === "string" ? s.provider : "",
    model: typeof s.model === "string" ? s.model : "",
    messages: sessionMessages(path, s.messages),
    errors: Array.isArray(s.errors) ? s.errors : [],
  };
}

/** The roles a session file's messages may have (the system prompt is never saved). */
const SAVED_ROLES = ["user", "assistant", "tool"];

/**
 * A session file's messages, each checked: a role mm saves, its content, a tool message's
 * `tool_call_id`, an assistant's `tool_calls`. A message without its `turn` (a file written by
 * hand, or by another tool) gets the one its place says: each question starts the next.
 */
function sessionMessages(path: string, raw: unknown[]): SessionMessage[] {
  let turn = 0;
  return raw.map((m, i) => {
    const fault = (what: string): never => {
      throw new SessionFileError(path, `message ${i + 1} ${what}`);
    };
    if (!m || typeof m !== "object" || Array.isArray(m)) return fault("is not an object");
    const msg = m as Record<string, unknown>;
    if (!SAVED_ROLES.includes(msg.role as string)) {
      fault(`has role ${JSON.stringify(msg.role)}, not one of ${SAVED_ROLES.join(", ")}`);
    }
    const content = msg.content;
    if (typeof content !== "string" && !(msg.role === "assistant" && content === null)) {
      fault("has no text content");
    }
    if (msg.role === "tool" && typeof msg.tool_call_id !== "string") fault("has no tool_call_id");
    if (msg.tool_calls !== undefined && !validCalls(msg.tool_calls)) {
      fault("has tool_calls that are not a list of {id, function: {name, arguments}}");
    }
    if (Number.isInteger(msg.turn) && (msg.turn as number) >= 1) turn = msg.turn as number;
    else if (msg.role === "user") turn++;
    // Reasoning that is not text (a file edited by hand) is left out; older files have none.
    const { reasoning_content: reasoning, ...rest } = msg;
    const kept = msg.role === "assistant" && typeof reasoning === "string" && reasoning
      ? { reasoning_content: reasoning }
      : {};
    return { ...rest, ...kept, turn: Math.max(turn, 1) } as SessionMessage;
  });
}

/** Whether `calls` is a list of tool calls as the history keeps them. */
function validCalls(calls: unknown): boolean {
  return Array.isArray(calls) && calls.every((c) => {
    const f = (c as { function?: { name?: unknown; arguments?: unknown } } | null)?.function;
    return typeof (c as { id?: unknown } | null)?.id === "string" &&
      typeof f?.name === "string" && typeof f.arguments === "string";
  });
}

/** One entry of a listing: a session, or a file that could not be read. */
export type Listed = { ok: true; path: string; session: SessionFile } | {
  ok: false;
  path: string;
  error: SessionFileError;
};

/** Every `*.json` file of `dir`, newest `updated` first; unreadable ones come last, reported. */
export async function listSessions(dir: string): Promise<Listed[]> {
  const out: Listed[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isFile || !entry.name.endsWith(".json")) continue;
      const path = join(dir, entry.name);
      try {
        out.push({ ok: true, path, session: await loadSession(path) });
      } catch (e) {
        if (!(e instanceof SessionFileError)) throw e;
        out.push({ ok: false, path, error: e });
      }
    }
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
  return out.sort((a, b) => {
    if (a.ok !== b.ok) return a.ok ? -1 : 1;
    if (!a.ok || !b.ok) return a.path.localeCompare(b.path);
    return b.session.updated.localeCompare(a.session.updated) ||
      b.session.id.localeCompare(a.session.id);
  });
}

/** The number of turns (questions) of a session. */
export function turnCount(session: SessionFile): number {
  return session.messages.reduce((n, m) => Math.max(n, m.turn ?? 0), 0);
}

/** What `mm sessions` and `/resume` show for the question of a session that is only a summary. */
export const COMPACTED_ONLY = "(compacted)";

/**
 * The first question of a session, on one line: a compacted session's summary is passed over (its
 * first real question is the prompt asked after it); a session that is only a summary (`/compact`,
 * nothing asked since) shows {@linkcode COMPACTED_ONLY}, not the summary.
 */
export function firstQuestion(session: SessionFile): string {
  const questions = session.messages.filter((m) => m.role === "user").map((m) => String(m.content));
  const first = questions.find((q) => !q.startsWith(COMPACT_WRAPPER));
  if (first === undefined && questions.length) return COMPACTED_ONLY;
  return first ? first.replace(/\s+/g, " ").trim() : "";
}

/**
 * `mm undo [--session ID]`: the last turn of the latest session of this directory (or of session
 * ID) taken back, its files and its messages, for someone who ran `mm -p "…"` and did not like it
 * (docs/undo.md). Prints what it restored and what it left alone; exit 0, or 1 when nothing could
 * be undone.
 */

import type { Config } from "../config/config.ts";
import { writeReport } from "../frontend/terminal/output.ts";
import { openSession, undoStoreOf } from "../frontend/start.ts";
import { UserError } from "../presentation.ts";
import { reportLines, takeBack, UndoStoreError } from "../undo/take_back.ts";
import { COMPACT_WRAPPER } from "../history.ts";

/** `mm undo --help`. */
export const UNDO_HELP = `Usage:
  mm undo [-c FILE] [--session ID] [--trust]

Takes back the last turn of the latest session of this directory (or of session ID): the files it
changed as they were before it, and its messages removed from the session file. A file changed
since by someone else is left alone and named. Needs sessions (on by default).

  -c, --config FILE       an agent file over the user's and the project's (its sessions.dir)
  --session ID            the session (else the latest of this directory)
  --trust                 trust the project's agent file for this run

Exit codes: 0 the turn was taken back; 1 nothing could be undone; 2 a bad flag or agent file, or
an unknown session.
`;

/** What `mm undo` says when the session has no turn. */
export const NO_TURN = "the session has no turn to take back";

/** What `mm undo` says with sessions off. */
export const UNDO_SESSIONS_OFF =
  "mm undo needs sessions: set sessions.enabled: true (what a turn changes is kept beside its session file)";

/** What `mm undo` says of a session compacted after its last turn. */
export const UNDO_COMPACTED_SESSION =
  "the session was compacted into a summary: its last turn cannot be taken back";

/** Nothing could be undone: `mm: <sentence>`, exit 1. */
export class NothingUndoneError extends UserError {
  /** The error saying `message`. */
  constructor(message: string) {
    super(message, 1);
    this.name = "NothingUndoneError";
  }
}

/** What a run of `mm undo` needs. */
export interface UndoOptions {
  config: Config;
  cwd: string;
  /** `--session ID`; else the latest session of `cwd`. */
  id?: string;
}

/** Runs `mm undo`; the exit code. */
export async function runUndo(opts: UndoOptions): Promise<number> {
  if (!opts.config.sessions.enabled) {
    throw new NothingUndoneError(UNDO_SESSIONS_OFF);
  }
  const recorder = await openSession({
    config: opts.config,
    cwd: opts.cwd,
    ...(opts.id !== undefined ? { sessionId: opts.id } : { continueLatest: true }),
  }, opts.config.model ?? "");
  if (!recorder) throw new NothingUndoneError(UNDO_SESSIONS_OFF);
  try {
    for (const w of recorder.warnings) writeReport(`${w}\n`);
    const turns: { turn: number; prompt: string }[] = [];
    for (const m of recorder.session.messages) {
      if (m.role !== "user" || turns.at(-1)?.turn === m.turn) continue;
      turns.push({ turn: m.turn, prompt: String(m.content) });
    }
    const last = turns.at(-1);
    if (!last) {
      throw new NothingUndoneError(NO_TURN);
    }
    if (last.prompt.startsWith(COMPACT_WRAPPER)) {
      throw new NothingUndoneError(UNDO_COMPACTED_SESSION);
    }
    try {
      const report = await takeBack(
        undoStoreOf(recorder),
        [last],
        opts.cwd,
        () => recorder.dropTurnsFrom(last.turn),
      );
      writeReport(`${reportLines(report).join("\n")}\n`);
      return 0;
    } catch (e) {
      if (e instanceof UndoStoreError) throw new NothingUndoneError(e.message);
      throw e;
    }
  } finally {
    await recorder.close();
  }
}

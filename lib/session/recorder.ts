/** Keeps a conversation's session file in step with the agent: opened or resumed, saved after every step. */

import { dirname } from "node:path";
import { errorReason } from "../files.ts";
import type { Message } from "../history.ts";
import {
  loadSession,
  newSessionId,
  saveSession,
  type SessionError,
  type SessionFile,
  sessionPath,
} from "./store.ts";
import { sessionDirs } from "./dirs.ts";
import { listSessionsIn } from "./list.ts";
import { pruneSessions } from "./prune.ts";
import { SessionLock } from "./lock.ts";
import { UserError, warningText } from "../presentation.ts";

/** How a front end asks for a session. */
export interface SessionRequest {
  /** The agent file's `sessions.dir` ("": the project's state folder, lib/session/dirs.ts). */
  dir: string;
  /** `sessions.keep`: the sessions kept in the folder written to (0: all). */
  keep?: number;
  cwd: string;
  provider: string;
  model: string;
  /** `--continue`: the latest session of this directory. */
  continueLatest?: boolean;
  /** `--session ID`. */
  id?: string;
}

/** What a session is asked for that cannot be given. */
export class SessionRequestError extends UserError {
  /** Builds the error. */
  constructor(message: string) {
    super(message, 2);
    this.name = "SessionRequestError";
  }
}

/** A session chosen by {@linkcode SessionRecorder.open}, before its lock is taken. */
interface Chosen {
  session: SessionFile;
  /** The folder it is in, or is written to. */
  dir: string;
  /** An existing file: read again once locked. */
  resumed: boolean;
  warnings: string[];
}

/** The parts of the agent a recorder saves. */
export interface Recordable {
  history: readonly Message[];
  turns: readonly number[];
  errors: SessionError[];
}

/** One conversation's session file. */
export class SessionRecorder {
  /** The file's content as last saved. */
  readonly session: SessionFile;
  /** The directory of session files. */
  readonly dir: string;
  /** Warnings met while opening (a continued session not found, an unreadable file skipped). */
  readonly warnings: string[] = [];
  #earlierErrors: SessionError[];
  #failed = false;
  #lock?: SessionLock;
  /** `sessions.keep`, until the first save prunes the folder written to. */
  #prune?: { dir: string; keep: number };

  private constructor(dir: string, session: SessionFile, lock?: SessionLock) {
    this.dir = dir;
    this.session = session;
    this.#earlierErrors = [...session.errors];
    this.#lock = lock;
  }

  /**
   * Opens a new session, or resumes the one asked for, holding its lock until {@linkcode close}: a
   * session another mm uses is waited for briefly, then refused with a SessionBusyError. A resumed
   * file is read once the lock is held, so it holds what the other run added.
   */
  static async open(req: SessionRequest): Promise<SessionRecorder> {
    const dirs = sessionDirs(req.cwd, req.dir);
    const chosen = await SessionRecorder.#choose(req, dirs);
    const { dir } = chosen;
    const id = chosen.session.id;
    const lock = await SessionLock.acquire(dir, id);
    try {
      const resumed = chosen.resumed ? await loadSession(sessionPath(dir, id)) : chosen.session;
      const recorder = new SessionRecorder(dir, resumed, lock);
      recorder.warnings.push(...chosen.warnings);
      // Old sessions go at the first save, once this one has something in it: not before a
      // picker lists them (`mm -r`), and not for a run that saves nothing.
      if ((req.keep ?? 0) > 0) recorder.#prune = { dir: dirs[0], keep: req.keep! };
      return recorder;
    } catch (err) {
      await lock.release();
      throw err;
    }
  }

  /** Lets the session's lock go: another mm may use it now. */
  async close(): Promise<void> {
    await this.#lock?.release();
    this.#lock = undefined;
  }

  /** The session asked for as it is now (not locked yet), whether it is resumed, the warnings. */
  static async #choose(req: SessionRequest, dirs: string[]): Promise<Chosen> {
    const dir = dirs[0];
    if (req.id !== undefined) {
      if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(req.id)) {
        throw new SessionRequestError(
          `"${req.id}" is not a session id — list them with mm sessions`,
        );
      }
      const id = req.id;
      const found = await firstWith(dirs, (d) => sessionPath(d, id));
      if (found === undefined) {
        throw new SessionRequestError(
          `no session "${req.id}" in ${dir} — list them with mm sessions`,
        );
      }
      const session = await loadSession(sessionPath(found, req.id));
      return { session, dir: found, resumed: true, warnings: [] };
    }
    const now = new Date().toISOString();
    const fresh: SessionFile = {
      id: newSessionId(),
      created: now,
      updated: now,
      cwd: req.cwd,
      provider: req.provider,
      model: req.model,
      messages: [],
      errors: [],
    };
    const warnings: string[] = [];
    if (req.continueLatest) {
      const listed = await listSessionsIn(dirs);
      const latest = listed.find((l) => l.ok && l.session.cwd === req.cwd);
      for (const l of listed) if (!l.ok) warnings.push(warningText(l.error.message));
      if (latest?.ok) {
        return { session: latest.session, dir: dirname(latest.path), resumed: true, warnings };
      }
      // A sessions directory shared by projects may hold sessions, only none of this directory.
      const others = listed.some((l) => l.ok);
      warnings.push(
        others
          ? warningText(
            `no session of ${req.cwd} to continue in ${dir} (it holds other directories' sessions) — starting a new one`,
          )
          : warningText(`no session to continue in ${dir} — starting a new one`),
      );
    }
    return { session: fresh, dir, resumed: false, warnings };
  }

  /** The messages to resume from, with their turns. */
  earlier(): { message: Message; turn: number }[] {
    return this.session.messages.map(({ turn, ...message }) => ({
      message: message as Message,
      turn,
    }));
  }

  /**
   * Removes turn `from` and every later one from the session file (undo), and saves it; a failure
   * to write is thrown.
   */
  async dropTurnsFrom(from: number): Promise<void> {
    this.session.messages = this.session.messages.filter((m) => m.turn < from);
    this.session.updated = new Date().toISOString();
    await saveSession(this.dir, this.session);
  }

  /**
   * Saves the agent's history (without its system prompt) and errors. A failure to write (a full
   * disk) is returned as one warning, never thrown: the turn goes on, and every later step tries
   * again, so the session is saved whole at the first step that can be written. Once saved again,
   * a later failure warns again. The first save removes the sessions past `sessions.keep` and
   * returns the sentence saying so.
   */
  async save(agent: Recordable, model?: string): Promise<string | undefined> {
    const s = this.session;
    s.messages = agent.history.slice(1).map((m, i) => ({ ...m, turn: agent.turns[i + 1] }));
    s.errors = [...this.#earlierErrors, ...agent.errors];
    s.updated = new Date().toISOString();
    if (model) s.model = model;
    try {
      await saveSession(this.dir, s);
      this.#failed = false;
    } catch (e) {
      if (this.#failed) return undefined;
      this.#failed = true;
      return unsavedWarning(sessionPath(this.dir, s.id), errorReason(e));
    }
    const prune = this.#prune;
    if (!prune) return undefined;
    this.#prune = undefined;
    return await pruneSessions(prune.dir, prune.keep, s.id);
  }
}

/** The first of `dirs` where `path(dir)` exists. */
async function firstWith(
  dirs: string[],
  path: (dir: string) => string,
): Promise<string | undefined> {
  for (const dir of dirs) {
    try {
      await Deno.stat(path(dir));
      return dir;
    } catch {
      // Not in this one.
    }
  }
  return undefined;
}

/** The warning of a session file that cannot be written: said once, until it is written again. */
export function unsavedWarning(path: string, reason: string): string {
  return warningText(
    `the session file ${path} cannot be written (${reason}) — mm tries again at every step; until then this conversation is not saved`,
  );
}

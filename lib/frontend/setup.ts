/** What every front end does before the first turn: the session file, the tools' context. */

import type { Config } from "../config/config.ts";
import { SessionRecorder, SessionRequestError } from "../session/recorder.ts";

/** What choosing a session needs. */
export interface SessionChoice {
  config: Config;
  cwd: string;
  /** `--continue`. */
  continueLatest?: boolean;
  /** `--session ID`. */
  sessionId?: string;
}

/** The session file of this run, when sessions are on or one is asked for. */
export async function openSession(
  opts: SessionChoice,
  model: string,
): Promise<SessionRecorder | undefined> {
  const asked = opts.continueLatest || opts.sessionId !== undefined;
  if (!opts.config.sessions.enabled) {
    if (!asked) return undefined;
    throw new SessionRequestError(
      "--continue and --session need sessions: set sessions.enabled: true in the agent file",
    );
  }
  return await SessionRecorder.open({
    dir: opts.config.sessions.dir,
    cwd: opts.cwd,
    provider: opts.config.provider,
    model,
    continueLatest: opts.continueLatest,
    id: opts.sessionId,
  });
}

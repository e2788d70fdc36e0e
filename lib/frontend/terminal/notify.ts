/**
 * The bell (`notify: bell`): when line or window mode rings the terminal's bell, a rule of its own
 * (pure) and a small keeper of when the turn started and whether the user typed since.
 */

/** What is rung: the terminal's bell. */
export const BEL = "\x07";

/** A turn that took longer than this rings the bell when it ends (milliseconds). */
export const NOTIFY_AFTER_MS = 10_000;

/** The variable that lowers {@linkcode NOTIFY_AFTER_MS}: for tests only. */
export const NOTIFY_AFTER_VAR = "MM_NOTIFY_AFTER_MS";

/** What asks for the bell: a turn that ended, or mm waiting for an answer (🔐, ask_user). */
export type RingKind = "turnEnded" | "question";

/** What {@linkcode shouldRing} decides from. Times are milliseconds of the same clock. */
export interface RingCase {
  kind: RingKind;
  /** When the turn started (a question: when it came up). */
  startedAt: number;
  now: number;
  /** Whether the user typed a key since then. */
  typedSince: boolean;
  /** How long a turn takes before its end rings; {@linkcode NOTIFY_AFTER_MS} unless lowered. */
  after?: number;
}

/**
 * Whether the bell rings: never when the user typed since the turn started or the question came up
 * (they are watching); a question always otherwise; a turn's end when it took longer than `after`.
 */
export function shouldRing(c: RingCase): boolean {
  if (c.typedSince) return false;
  if (c.kind === "question") return true;
  return c.now - c.startedAt > (c.after ?? NOTIFY_AFTER_MS);
}

/** The wait before a turn's end rings: `MM_NOTIFY_AFTER_MS` when it is a whole number, else the default. */
export function notifyAfter(env: Record<string, string | undefined>): number {
  const v = env[NOTIFY_AFTER_VAR];
  return v !== undefined && /^\d+$/.test(v.trim()) ? Number(v.trim()) : NOTIFY_AFTER_MS;
}

/** What a {@linkcode Notifier} is given by its front end. */
export interface NotifierOptions {
  /** `notify: bell`, and stdout is a terminal: otherwise nothing is ever written. */
  enabled: boolean;
  /** Writes the bell to the terminal. */
  write(bytes: string): void;
  /** See {@linkcode RingCase.after}. */
  after: number;
  /** The clock; Date.now unless a test gives its own. */
  now?: () => number;
}

/**
 * One front end's bell: told when a turn starts, when the user types, when a turn ends and when a
 * question comes up, it rings as {@linkcode shouldRing} says.
 */
export class Notifier {
  readonly #opts: NotifierOptions;
  #startedAt = 0;
  #typed = false;

  constructor(opts: NotifierOptions) {
    this.#opts = opts;
  }

  /** A turn starts: the clock starts, nothing typed yet. */
  turnStarted(): void {
    this.#startedAt = this.#now();
    this.#typed = false;
  }

  /** The user typed a key. */
  typed(): void {
    this.#typed = true;
  }

  /** The turn ended: the bell when it was long and the user did not type meanwhile. */
  turnEnded(): void {
    this.#ring("turnEnded", this.#startedAt);
  }

  /** mm waits for an answer (🔐, a question): the bell, as the question comes up. */
  question(): void {
    this.#ring("question", this.#now());
  }

  #ring(kind: RingKind, startedAt: number): void {
    if (!this.#opts.enabled) return;
    const typedSince = kind === "question" ? false : this.#typed;
    if (shouldRing({ kind, startedAt, now: this.#now(), typedSince, after: this.#opts.after })) {
      this.#opts.write(BEL);
    }
  }

  #now(): number {
    return (this.#opts.now ?? Date.now)();
  }
}

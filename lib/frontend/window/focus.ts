/**
 * Who gets a key in window mode when a permission box or an ask_user form is up: the box, or the
 * input where the user was typing (docs/window-mode.md, "The permission box"). Pure: the window
 * hands in its state, the key and the time, and acts on the route it gets back.
 */

/**
 * How long the user must pause, after a permission box or a form comes up, before their keys are
 * its: until then they are the input box's, where the user was typing.
 */
export const TYPE_AHEAD_PAUSE = 500;

/** Whose the keys are, and the times that decide it. */
export interface Focus {
  /** Whether keys go to the box or form on screen; else to the input, where the user types. */
  box: boolean;
  /** Whether a key went to the input since the box came up: then only Tab gives the box the keys. */
  typedAhead: boolean;
  /** When the box or form on screen came up, or was drawn anew after a resize (ms). */
  since: number;
  /** When the last key came (ms). */
  lastKeyAt: number;
}

/** What a key does: who gets it, or what happens at once. */
export type KeyRoute =
  /** Nothing: the window is too small to draw, and the key is not one that still acts. */
  | "ignored"
  /** Ctrl-C with a box or form up: it is refused and the turn cancelled. */
  | "cancel"
  /** Ctrl-D with a box or form up: the turn is cancelled and mm leaves after it. */
  | "leave"
  /** Tab while the input had the keys: the box takes them, and the Tab does nothing else. */
  | "focus"
  /** The window's own: the mouse, F2, Ctrl-Z, Ctrl-L, and the scrolling keys while the input has the keys. */
  | "window"
  /** The box's or the form's (a long call's scrolling keys first, then the conversation's). */
  | "box"
  /** The input's (and the window's keys of an idle input: Esc, Ctrl-C, Ctrl-D, Enter, Home, End). */
  | "input";

/** The state before any box came up: nobody has typed yet. */
export const IDLE: Focus = { box: true, typedAhead: false, since: 0, lastKeyAt: 0 };

/** What still acts in a window too small to draw anything. */
const WHEN_TOO_SMALL = new Set(["ctrl-c", "ctrl-d", "ctrl-z", "ctrl-l", "escape"]);

/** Keys the window handles itself, whoever has the keys: they are not typing. */
const WINDOW_KEYS = new Set(["f2", "ctrl-z", "ctrl-l"]);

/** Keys that scroll the conversation (or a long call, when the box has the keys): not typing. */
const SCROLL_KEYS = new Set(["pageup", "pagedown", "shift-up", "shift-down"]);

/**
 * A box or form came up with the input's draft empty or not: someone idle (no draft, no key for
 * {@linkcode TYPE_AHEAD_PAUSE}) answers at once; a key just typed keeps the keys in the input
 * until a pause; a draft keeps them there until Tab.
 */
export function boxOpened(f: Focus, now: number, draftEmpty: boolean): Focus {
  return {
    box: draftEmpty && now - f.lastKeyAt >= TYPE_AHEAD_PAUSE,
    typedAhead: !draftEmpty,
    since: now,
    lastKeyAt: f.lastKeyAt,
  };
}

/**
 * The window changed size (or came back from too small) with a box or form up: it counts as just
 * come up, so nothing is answered from a screen the user has not read; the next key is the box's
 * only after a pause.
 */
export function boxRedrawn(f: Focus, now: number): Focus {
  return { box: false, typedAhead: false, since: now, lastKeyAt: f.lastKeyAt };
}

/** Whether the status line says that keys typed go to the input though a box or form is up. */
export function typingAhead(f: Focus): boolean {
  return !f.box && f.typedAhead;
}

/**
 * Routes the key named `key` at `now`. `asking`: a box or form is up; `tooSmall`: the window is
 * too small to draw. With a box up, Ctrl-C and Ctrl-D act at once and Esc refuses wherever the
 * keys go; a paste is always the input's; the box takes the keys on Tab, or on a key after a pause
 * when none was typed since it came up. A key of a word being typed never answers the box.
 */
export function routeKey(
  f: Focus,
  key: string,
  now: number,
  { asking, tooSmall }: { asking: boolean; tooSmall: boolean },
): { focus: Focus; route: KeyRoute } {
  if (tooSmall && !WHEN_TOO_SMALL.has(key)) return { focus: f, route: "ignored" };
  const sinceKey = now - f.lastKeyAt;
  const focus = { ...f, lastKeyAt: now };
  if (key === "mouse") return { focus, route: "window" };
  if (!asking) {
    const own = WINDOW_KEYS.has(key) || SCROLL_KEYS.has(key);
    return { focus, route: own ? "window" : "input" };
  }
  if (key === "ctrl-c") return { focus, route: "cancel" };
  if (key === "ctrl-d") return { focus, route: "leave" };
  if (!focus.box) {
    const paused = now - focus.since >= TYPE_AHEAD_PAUSE && sinceKey >= TYPE_AHEAD_PAUSE;
    if (key === "tab" || (!focus.typedAhead && paused)) focus.box = true;
    if (key === "tab") return { focus, route: "focus" };
  }
  if (WINDOW_KEYS.has(key)) return { focus, route: "window" };
  if (focus.box) return { focus, route: key === "paste" ? "input" : "box" };
  if (key === "escape") return { focus, route: "box" };
  if (SCROLL_KEYS.has(key)) return { focus, route: "window" };
  return { focus: { ...focus, typedAhead: true }, route: "input" };
}

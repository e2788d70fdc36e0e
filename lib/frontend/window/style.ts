/**
 * The window's attributes as SGR sequences. `NO_COLOR` (or a terminal without colour) drops the
 * colours and the dimming, and keeps reverse and bold: the highlight of a form and the header stay.
 */

/** The colours the window uses. */
export type Colour = "red" | "green" | "yellow" | "blue" | "magenta" | "cyan";

const COLOURS: Record<Colour, number> = {
  red: 31,
  green: 32,
  yellow: 33,
  blue: 34,
  magenta: 35,
  cyan: 36,
};

/** Styles text, with or without colour. Every styled piece ends with its own reset of the attribute. */
export class Style {
  /** Whether colours and dimming are drawn. */
  readonly colour: boolean;

  /** A style; `colour: false` for `NO_COLOR`. */
  constructor(colour: boolean) {
    this.colour = colour;
  }

  /** Bold, always. */
  bold(text: string): string {
    return text ? `\x1b[1m${text}\x1b[22m` : text;
  }

  /** Reverse video, always. */
  reverse(text: string): string {
    return text ? `\x1b[7m${text}\x1b[27m` : text;
  }

  /** Dimmed, with colour only. */
  dim(text: string): string {
    return this.colour && text ? `\x1b[2m${text}\x1b[22m` : text;
  }

  /** In `colour`, with colour only. */
  fg(colour: Colour, text: string): string {
    return this.colour && text ? `\x1b[${COLOURS[colour]}m${text}\x1b[39m` : text;
  }
}

// deno-lint-ignore no-control-regex
const SGR = /\x1b\[[0-9;]*m|\x1b\]8;;[^\x1b]*\x1b\\/g;

/** `text` without its SGR sequences (and OSC 8 hyperlinks' wrapping: a Markdown link's). */
export function plainText(text: string): string {
  return text.includes("\x1b") ? text.replace(SGR, "") : text;
}

/**
 * The start question of line and window mode when the project's agent file has keys that need
 * trust (docs/security.md): what it would run and reach, then trust (and remember), only this
 * time, or ignore those keys. Asked on the terminal in its ordinary mode, before either front end
 * takes it over.
 */
import { type TrustItem, trustKeys, trustLines } from "../../config/trust.ts";
import { visible } from "./visible.ts";

/** The user's answer: trust and remember, trust this run only, or go on without those keys. */
export type TrustAnswer = "trust" | "once" | "ignore";

/** The question's prompt line. */
export const TRUST_PROMPT =
  "Trust it? [t]rust and remember, [o]nly this time, [i]gnore those keys: ";

/** The question's text before its prompt line. */
export function trustQuestion(file: string, items: readonly TrustItem[]): string {
  return [
    `${shown(file)} is not trusted yet, and its ${trustKeys(items).join(", ")} would run or reach:`,
    ...trustLines(items).map((l) => `  ${shown(l)}`),
    "",
  ].join("\n");
}

/**
 * A line of the agent file's shown on the terminal: its controls and invisible characters drawn
 * visibly (visible.ts), a newline in it too, so that a name cannot clear the screen or fake a line.
 */
export function shown(text: string): string {
  return visible(text).replace(/\n/g, "^J");
}

/** The answer a typed line means; undefined when it means none of them. */
export function trustAnswer(line: string): TrustAnswer | undefined {
  const word = line.trim().toLowerCase();
  if (word === "t" || word === "trust" || word === "y" || word === "yes") return "trust";
  if (word === "o" || word === "once" || word === "only this time") return "once";
  if (word === "i" || word === "ignore" || word === "n" || word === "no") return "ignore";
  return undefined;
}

/**
 * Asks on stderr and reads the answer from stdin, a line at a time, until one means an answer; the
 * end of the input ignores the keys (nothing of the file runs unasked).
 */
export async function askTrust(file: string, items: readonly TrustItem[]): Promise<TrustAnswer> {
  const enc = new TextEncoder();
  await Deno.stderr.write(enc.encode(trustQuestion(file, items)));
  while (true) {
    await Deno.stderr.write(enc.encode(TRUST_PROMPT));
    // Read up to the answer's newline and no further: what is typed ahead is the front end's.
    const line = await readLine();
    if (line === undefined) return "ignore";
    const answer = trustAnswer(line);
    if (answer) return answer;
  }
}

/** The question of `mm trust` on a terminal, after what the file runs. */
export const CONFIRM_PROMPT = "Trust this folder? [y/N] ";

/** Asks {@linkcode CONFIRM_PROMPT} on stderr and reads one line: true only for y or yes. */
export async function confirmTrust(): Promise<boolean> {
  await Deno.stderr.write(new TextEncoder().encode(CONFIRM_PROMPT));
  const line = await readLine();
  const word = line?.trim().toLowerCase();
  return word === "y" || word === "yes";
}

/**
 * One line of stdin, read a byte at a time so that nothing typed after it is taken from the
 * front end that reads next; undefined at the end of the input.
 */
async function readLine(): Promise<string | undefined> {
  const bytes: number[] = [];
  const one = new Uint8Array(1);
  for (;;) {
    const n = await Deno.stdin.read(one);
    if (n === null) {
      return bytes.length ? new TextDecoder().decode(new Uint8Array(bytes)) : undefined;
    }
    if (n === 0) continue;
    if (one[0] === 0x0a) return new TextDecoder().decode(new Uint8Array(bytes));
    bytes.push(one[0]);
  }
}

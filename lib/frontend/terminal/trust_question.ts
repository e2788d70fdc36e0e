/**
 * The start question of line and window mode when the project's agent file has keys that need
 * trust (docs/security.md): what it would run and reach, then trust (and remember), only this
 * time, or ignore those keys. Asked on the terminal in its ordinary mode, before either front end
 * takes it over.
 */
import { type TrustItem, trustKeys, trustLines } from "../../config/trust.ts";

/** The user's answer: trust and remember, trust this run only, or go on without those keys. */
export type TrustAnswer = "trust" | "once" | "ignore";

/** The question's prompt line. */
export const TRUST_PROMPT =
  "Trust it? [t]rust and remember, [o]nly this time, [i]gnore those keys: ";

/** The question's text before its prompt line. */
export function trustQuestion(file: string, items: readonly TrustItem[]): string {
  return [
    `${file} is not trusted yet, and its ${trustKeys(items).join(", ")} would run or reach:`,
    ...trustLines(items).map((l) => `  ${l}`),
    "",
  ].join("\n");
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
  const dec = new TextDecoder();
  const buf = new Uint8Array(1024);
  let pending = "";
  while (true) {
    await Deno.stderr.write(enc.encode(TRUST_PROMPT));
    let line: string | undefined;
    while (line === undefined) {
      const nl = pending.indexOf("\n");
      if (nl >= 0) {
        line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        break;
      }
      const n = await Deno.stdin.read(buf);
      if (n === null) return "ignore";
      pending += dec.decode(buf.subarray(0, n), { stream: true });
    }
    const answer = trustAnswer(line);
    if (answer) return answer;
  }
}

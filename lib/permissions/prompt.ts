/** The permission layer's texts (tools.md, "Permissions"). */

/**
 * What the model reads when a call of `tool` is refused: `[command rejected by the user]` for bash,
 * `[rename rejected by the user]` for lsp (only its rename asks).
 */
export function rejectedText(tool: string): string {
  if (tool === "bash") return "[command rejected by the user]";
  if (tool === "lsp") return "[rename rejected by the user]";
  return `[${tool} rejected by the user]`;
}

/** A refusal with the reason the user typed: the spec's text, then the user's words. */
export function refusalWithReason(tool: string, reason: string): string {
  return `${rejectedText(tool)}\nThe user says: ${reason.trim()}`;
}

/** A user's answer to a permission request. */
export type PermissionAnswer =
  | { kind: "allow" }
  | { kind: "allowAlways" }
  /** `unasked`: nobody could be asked (`-p`), so the refusal names the rule that asked. */
  | { kind: "reject"; reason?: string; unasked?: true };

/** The asked agent a permission request comes from (ask_agent), and its own id of the call. */
export interface AskedBy {
  agent: string;
  callId: string;
}

/**
 * Asks the user whether a call may run (`change`: what a file-changing call would change); one-shot
 * mode answers `reject` without asking. For an asked agent's call (`askedBy`), `summary` is the
 * whole question: `<agent> asks: <title>`. `always` is the rule an "always" adds for the session
 * (`fetch_content(example.com)`), which the front end names when it offers or takes that answer.
 */
export type AskPermission = (
  tool: string,
  summary: string,
  input: Record<string, unknown>,
  askedBy?: AskedBy,
  change?: { path: string; oldText?: string; newText: string; replaces?: string },
  always?: string,
) => Promise<PermissionAnswer>;

/**
 * What a permission prompt adds after a call's summary when a path of the call leads elsewhere than
 * it reads: through a symbolic link, or out of the project (`→ /abs/target (outside the project)`).
 */
export function targetText(real: string, outside: boolean): string {
  return `→ ${real}${outside ? " (outside the project)" : ""}`;
}

/** A call's summary as its permission prompt shows it: the summary, then where its paths lead. */
export function withTargets(summary: string, targets: readonly string[]): string {
  return targets.length ? `${summary} ${targets.join(" ")}` : summary;
}

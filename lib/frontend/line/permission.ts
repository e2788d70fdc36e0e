/** Line mode's answer to the `🔐` prompt (tools.md, "Permissions", Terminal display). */

import type { PermissionAnswer } from "../../permissions/prompt.ts";
import { yesNo } from "../../text.ts";

/** Reads the answer to the `🔐` prompt: yes, always, no (also an empty line), or a reason for no. */
export function permissionAnswer(text: string): PermissionAnswer {
  const a = text.trim().toLowerCase();
  const word = yesNo(a, false);
  if (word === "yes") return { kind: "allow" };
  if (a === "a" || a === "always") return { kind: "allowAlways" };
  if (a === "" || word === "no") return { kind: "reject" };
  return { kind: "reject", reason: text.trim() };
}

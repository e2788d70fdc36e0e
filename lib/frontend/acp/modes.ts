/**
 * Editor mode's session modes (ACP `modes`, `session/set_mode`): `default`, and `plan`, where
 * only reading runs (lib/permissions/plan.ts). The editor's mode picker lists them.
 */

import type { SessionModeState } from "npm:@agentclientprotocol/sdk@2.4.0";

/** The mode of a session that may change files (as its permissions allow). */
export const DEFAULT_MODE = "default";

/** Plan mode's id. */
export const PLAN_MODE = "plan";

/** The modes offered, in the picker's order. */
export const SESSION_MODES = [
  {
    id: DEFAULT_MODE,
    name: "Default",
    description: "Reads, edits and runs commands, as the permissions allow",
  },
  {
    id: PLAN_MODE,
    name: "Plan",
    description: "Only reading runs: the model explores and answers with a plan",
  },
] as const;

/** The `modes` of a session's `session/new` or `session/load` answer. */
export function modeState(plan: boolean): SessionModeState {
  return {
    currentModeId: plan ? PLAN_MODE : DEFAULT_MODE,
    availableModes: SESSION_MODES.map((m) => ({ ...m })),
  };
}

/** Whether mode `id` is plan mode; undefined for an id mm does not offer. */
export function isPlanMode(id: string): boolean | undefined {
  if (id === PLAN_MODE) return true;
  if (id === DEFAULT_MODE) return false;
  return undefined;
}

/** The error of a `session/set_mode` naming a mode mm does not offer. */
export function unknownModeText(id: string): string {
  return `no mode "${id}": the modes are ${SESSION_MODES.map((m) => m.id).join(" and ")}`;
}

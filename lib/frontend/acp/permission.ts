/**
 * The editor's permission dialog (`session/request_permission`): the buttons mm offers for a call
 * that asks when `yolo: false`, and what the user's choice means (tools.md, "Permissions").
 */

import type {
  PermissionOption,
  RequestPermissionResponse,
} from "npm:@agentclientprotocol/sdk@2.4.0";
import type { PermissionAnswer } from "../../permissions/prompt.ts";

/** The option ids of the dialog. */
export const ALLOW_ONCE = "allow_once";
/** Runs the call, and every later call of the same tool in this ACP session without asking. */
export const ALLOW_ALWAYS = "allow_always";
/** Refuses the call: the model reads the refusal text. */
export const REJECT_ONCE = "reject_once";

/**
 * The dialog's three buttons for a call of `tool`: allow once, always allow (the session rule it
 * adds, `always`, when the core names one: `Always allow fetch_content(example.com)`), reject.
 */
export function permissionOptions(tool: string, always?: string): PermissionOption[] {
  return [
    { optionId: ALLOW_ONCE, name: "Allow once", kind: "allow_once" },
    { optionId: ALLOW_ALWAYS, name: `Always allow ${always ?? tool}`, kind: "allow_always" },
    { optionId: REJECT_ONCE, name: "Reject", kind: "reject_once" },
  ];
}

/**
 * The user's choice as the core takes it. A cancelled dialog (the turn was cancelled, or the editor
 * closed it), an unknown option, or no answer at all (`undefined`: the request failed or the turn
 * stopped first) is a refusal.
 */
export function permissionAnswer(
  response: RequestPermissionResponse | undefined,
): PermissionAnswer {
  const outcome = response?.outcome;
  if (outcome?.outcome !== "selected") return { kind: "reject" };
  if (outcome.optionId === ALLOW_ONCE) return { kind: "allow" };
  if (outcome.optionId === ALLOW_ALWAYS) return { kind: "allowAlways" };
  return { kind: "reject" };
}

/**
 * `promise`'s value, or `undefined` as soon as `signal` aborts (a cancelled turn stops waiting for
 * the editor; its late answer is then ignored). A rejected request is `undefined` too, after
 * `onError` has been told.
 */
export function untilAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal,
  onError: (e: unknown) => void,
): Promise<T | undefined> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.resolve(undefined);
  }
  return new Promise((resolve) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        if (!signal.aborted) onError(e);
        resolve(undefined);
      },
    );
  });
}

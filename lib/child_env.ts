/**
 * The environment of every process mm starts (bash and declared tools, hooks, language servers,
 * MCP servers, child agents: lib/exec/spawn.ts): mm's own, without mm's secrets. `MM_API_KEY` is left out, and so is
 * any variable whose value is a secret mm was told of (the agent file's `apiKey`, which itself
 * never enters an environment; lib/secrets.ts): `env` in a tool must not show the key to the
 * model, from where it would reach the session file and the server.
 */

import { isSecretValue } from "./secrets.ts";

/** The variables that hold mm's own secrets. */
export const SECRET_VARIABLES: readonly string[] = ["MM_API_KEY"];

/**
 * The variables no child inherits: `MM_TRUST` (a trust given to this run reaches asked agents only,
 * handed on by lib/subagent/child.ts, never bash, hooks or servers).
 */
export const NOT_INHERITED: readonly string[] = ["MM_TRUST"];

/** Whether the variable `name` = `value` is one of mm's secrets. */
export function isSecret(name: string, value: string): boolean {
  return SECRET_VARIABLES.includes(name) || isSecretValue(value);
}

/**
 * `env` without mm's secrets, with `extra` over it (`extra` may put one back on purpose: a child
 * agent that needs its own key).
 */
export function withoutSecrets(
  env: Record<string, string>,
  extra: Record<string, string> = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (!isSecret(name, value) && !NOT_INHERITED.includes(name)) out[name] = value;
  }
  return { ...out, ...extra };
}

/**
 * The options of `Deno.Command` that start a child with this process's environment without its
 * secrets, and `extra` over it (used by the one starter, lib/exec/spawn.ts). Without the permission to
 * read the environment, it cannot be cleaned: the child inherits it, with `extra`.
 */
export function childEnv(
  extra: Record<string, string> = {},
): { env: Record<string, string>; clearEnv: boolean } {
  let env: Record<string, string>;
  try {
    env = Deno.env.toObject();
  } catch {
    return { env: extra, clearEnv: false };
  }
  return { env: withoutSecrets(env, extra), clearEnv: true };
}

/**
 * The command line's overrides of the agent file: `--model`, `--provider`, `--url`, `--yolo`,
 * `--thinking`.
 */

import type { Flags } from "../cli/flags.ts";
import { UsageError } from "../cli/flags.ts";
import { type Config, DEFAULT_URLS, EFFORTS, type ProviderName, PROVIDERS } from "./config.ts";
import { nearest } from "../nearest.ts";

/** `config` with the flags' values over it. A bad value is a UsageError. */
export function applyFlags(config: Config, flags: Flags): Config {
  const out: Config = { ...config };
  if (flags.provider !== undefined) {
    if (!(PROVIDERS as readonly string[]).includes(flags.provider)) {
      const near = nearest(flags.provider, PROVIDERS);
      throw new UsageError(
        `--provider "${flags.provider}" is not one of ${PROVIDERS.join(", ")}${
          near ? ` (did you mean ${near}?)` : ""
        }`,
      );
    }
    const provider = flags.provider as ProviderName;
    // A URL that was only the old provider's default follows the provider.
    if (flags.url === undefined && out.url === DEFAULT_URLS[out.provider]) {
      out.url = DEFAULT_URLS[provider];
    }
    out.provider = provider;
  }
  if (flags.url !== undefined) {
    let ok = false;
    try {
      ok = ["http:", "https:"].includes(new URL(flags.url).protocol);
    } catch {
      ok = false;
    }
    if (!ok) throw new UsageError(`--url "${flags.url}" is not an http(s) URL`);
    out.url = flags.url;
  }
  if (flags.model !== undefined) {
    if (flags.model.trim() === "") throw new UsageError("--model needs a model name");
    out.model = flags.model;
  }
  if (flags.yolo !== undefined) out.yolo = flags.yolo;
  if (flags.thinking !== undefined) Object.assign(out, thinkingFlag(flags.thinking));
  return out;
}

/** The values of `--thinking`. */
export const THINKING_FLAG = ["on", "off", ...EFFORTS] as const;

/** What `--thinking` (or `/think`) sets: on or off, or on at an effort. A bad value is a UsageError. */
export function thinkingFlag(value: string): Pick<Config, "thinking" | "reasoningEffort"> {
  if (value === "on" || value === "off") return { thinking: value, reasoningEffort: undefined };
  if ((EFFORTS as readonly string[]).includes(value)) {
    return { thinking: "on", reasoningEffort: value as Config["reasoningEffort"] };
  }
  const near = nearest(value, THINKING_FLAG);
  throw new UsageError(
    `--thinking "${value}" is not one of ${THINKING_FLAG.join(", ")}${
      near ? ` (did you mean ${near}?)` : ""
    }`,
  );
}

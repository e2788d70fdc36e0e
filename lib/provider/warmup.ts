/**
 * The warm cache (docs/small-models.md, "The warm cache"): line and window mode send a local
 * server the prompt's static prefix — the system message and the tool declarations, built by the
 * same client as every request, so they are the same bytes — as a one-token generation, so the
 * server has it cached when the first prompt comes. Never shown, never an error: a warm-up that
 * fails, hangs or meets a server still loading its model is forgotten, and the next real request
 * stops it first.
 */

import type { Config, ProviderName } from "../config/config.ts";
import type { Message } from "../history.ts";
import type { ChatClient, ThinkingChoice, ToolSchema } from "./chat.ts";

/** The providers that run on this machine's (or the LAN's) server: their prompt cache is ours. */
export const WARM_PROVIDERS: readonly ProviderName[] = ["ollama", "llamacpp", "lmstudio"];

/** The user message after the prefix: a chat template wants one; its bytes come after the prefix. */
export const WARMUP_PROMPT = "Hi";

/** The longest a warm-up may take (a model loading from a slow disk), in milliseconds. */
export const WARMUP_LIMIT = 300_000;

/** What a warm-up sends: the requests' first message(s), their tool declarations, their thinking. */
export interface WarmPrefix {
  /** The messages before the first prompt, as the requests send them (the system message). */
  messages: Message[];
  tools: ToolSchema[];
  thinking?: ThinkingChoice;
}

/** Whether `config` warms its server: a local provider, and `warmup` not turned off. */
export function warms(config: Config): boolean {
  return config.warmup && WARM_PROVIDERS.includes(config.provider);
}

/** The warm-ups of one chat client: one at a time, a new one stopping the last. */
export class Warmup {
  #chat: ChatClient;
  #controller?: AbortController;
  #running: Promise<void> = Promise.resolve();

  /** The warm-ups of `chat`. */
  constructor(chat: ChatClient) {
    this.#chat = chat;
  }

  /** Starts a warm-up of `prefix`, stopping the one in flight; never waits, never throws. */
  warm(prefix: WarmPrefix): void {
    this.stop();
    const controller = new AbortController();
    this.#controller = controller;
    const timer = setTimeout(() => controller.abort(), WARMUP_LIMIT);
    this.#running = this.#chat.stream({
      messages: [...prefix.messages, { role: "user", content: WARMUP_PROMPT }],
      tools: prefix.tools,
      ...(prefix.thinking ? { thinking: prefix.thinking } : {}),
      maxTokens: 1,
      signal: controller.signal,
      onDelta: () => {},
    }).then(() => {}, () => {}).finally(() => {
      clearTimeout(timer);
      if (this.#controller === controller) this.#controller = undefined;
    });
  }

  /** Stops the warm-up in flight, if any (a real request is about to start). */
  stop(): void {
    this.#controller?.abort();
    this.#controller = undefined;
  }

  /** Settles when the last warm-up started has ended, however it ended. */
  settled(): Promise<void> {
    return this.#running;
  }
}

/** unload_model: frees a model's memory on the server (tools.md, `unload_model`). */

import { ProviderError } from "../lib/provider/errors.ts";
import { resolveModel } from "../lib/provider/models.ts";
import {
  UNLOAD_TIMEOUT,
  type UnloadFailure,
  unloadModel as unloadOnServer,
  type UnloadOutcome,
} from "../lib/provider/unload.ts";
import type { Tool, ToolResult } from "../lib/tool.ts";

/** Input of unload_model, after coercion; empty or absent means the agent's own model. */
export interface UnloadModelInput {
  model?: string;
}

/** The tool's description, as the model reads it. */
export const UNLOAD_MODEL_DESCRIPTION =
  "Unload a model from the model server's memory, to free RAM and VRAM for another model. Leave model empty to unload your own model: the server reloads it at your next step.";

/** The `model` field's description (tools.md, `unload_model`). */
export const MODEL_DESCRIPTION =
  "The model to unload, as the server names it. Empty: the agent's own model.";

/** What the display shows for an empty `model`. */
export const OWN_MODEL = "(own model)";

/** `unloaded <model>`. */
export function unloadedText(model: string): string {
  return `unloaded ${model}`;
}

/** `<model> was not loaded: nothing to unload`. */
export function notLoadedText(model: string): string {
  return `${model} was not loaded: nothing to unload`;
}

/** `cannot unload <model>: <reason>`. */
export function cannotUnloadText(model: string, reason: string): string {
  return `cannot unload ${model}: ${reason}`;
}

/** The reason of a failed unload, in words the model can act on. */
export function failureReason(f: UnloadFailure): string {
  switch (f.kind) {
    case "unsupported":
      return `the ${f.provider} provider cannot unload a model`;
    case "unreachable":
      return `cannot reach the ${f.provider} server at ${f.url} (${f.detail})`;
    case "timeout":
      return `the ${f.provider} server at ${f.url} did not answer within ${f.ms / 1000}s`;
    case "cancelled":
      return "cancelled";
    case "http":
      return `the ${f.provider} server at ${f.url} answered HTTP ${f.status}: ${f.message}`;
    case "singleModel":
      return `the llama.cpp server at ${f.url} serves a single model and has no /models/unload (404: it exists in router mode only) — to free its memory, restart llama-server in router mode (without -m) so models load and unload on demand, or start it with --sleep-idle-seconds N to unload the model after N idle seconds, or stop the server`;
    case "unconfirmed":
      return `the ${f.provider} server at ${f.url} did not confirm the unload (${f.got})`;
  }
}

/** The one result line of an outcome. */
export function outcomeText(model: string, outcome: UnloadOutcome): ToolResult {
  switch (outcome.kind) {
    case "unloaded":
      return { output: unloadedText(model) };
    case "notLoaded":
      return { output: notLoadedText(model) };
    case "cannot":
      return { output: cannotUnloadText(model, failureReason(outcome.failure)), failed: true };
  }
}

/** unload_model: never asks (nothing changes on disk, the model reloads by itself). */
export const unloadModel: Tool<UnloadModelInput> = {
  name: "unload_model",
  kind: "other",
  emoji: "🧹",
  asks: false,
  declared: (config) => config.unloadModels && !config.structuredOutput,
  description: UNLOAD_MODEL_DESCRIPTION,
  parameters: {
    model: {
      type: "string",
      description: MODEL_DESCRIPTION,
      optional: true,
      aliases: ["name", "model_name"],
    },
  },
  summary: (input) => input.model?.trim() || OWN_MODEL,
  async run(input, ctx) {
    let model = input.model?.trim() ?? "";
    if (model === "") {
      // The agent's own model: the agent file's, else the one the server lists (auto-picked).
      try {
        model = ctx.config.model || await resolveModel(ctx.config);
      } catch (e) {
        if (!(e instanceof ProviderError)) throw e;
        const { provider } = ctx.config;
        if (provider !== "dmr" && provider !== "openai") {
          return { output: cannotUnloadText(OWN_MODEL, e.message), failed: true };
        }
        model = OWN_MODEL; // these cannot unload anyway: say that, not why the listing failed
      }
    }
    const outcome = await unloadOnServer({
      config: ctx.config,
      model,
      http: ctx.http,
      signal: ctx.signal,
      timeout: UNLOAD_TIMEOUT,
    });
    return outcomeText(model, outcome);
  },
};

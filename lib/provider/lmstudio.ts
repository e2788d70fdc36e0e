/** The shape of LM Studio's native model list (`GET /api/v1/models`, LM Studio 0.4 and later). */

/** One model of LM Studio's `GET /api/v1/models`. */
export interface LmStudioModel {
  key?: unknown;
  type?: unknown;
  max_context_length?: unknown;
  loaded_instances?: { id?: unknown; config?: { context_length?: unknown } }[];
}

/**
 * The models of an LM Studio `GET /api/v1/models` answer, or undefined when it is not that shape
 * (an older LM Studio, another server).
 */
export function lmstudioModels(json: unknown): LmStudioModel[] | undefined {
  const list = (json as { models?: unknown } | undefined)?.models;
  if (!Array.isArray(list)) return undefined;
  return (list as LmStudioModel[]).filter((m) => m && typeof m === "object").map((m) => ({
    ...m,
    loaded_instances: Array.isArray(m.loaded_instances) ? m.loaded_instances : [],
  }));
}

/** One lsp call: the model's input, the action it names, and what every action works with. */

import type { LspServerConfig } from "../../lib/config/config.ts";
import type { LinesOf } from "../../lib/lsp/format.ts";
import type { ToolContext } from "../../lib/tool.ts";

/** Input of lsp, after coercion; a left-out optional field is undefined. */
export interface LspInput {
  action: string;
  path: string;
  symbol?: string;
  line?: number;
  column?: number;
  new_name?: string;
}

/** The six actions, in the order the description gives them. */
export const ACTIONS = [
  "definition",
  "references",
  "hover",
  "symbols",
  "diagnostics",
  "rename",
] as const;

/** One of {@linkcode ACTIONS}. */
export type LspAction = typeof ACTIONS[number];

/** Other ways a model names an action (lower case, without `_`, `-` or spaces). */
const ACTION_ALIASES: Record<string, LspAction> = {
  def: "definition",
  godef: "definition",
  goto: "definition",
  gotodefinition: "definition",
  finddefinition: "definition",
  declaration: "definition",
  reference: "references",
  refs: "references",
  ref: "references",
  findreferences: "references",
  usages: "references",
  info: "hover",
  documentsymbol: "symbols",
  documentsymbols: "symbols",
  symbol: "symbols",
  outline: "symbols",
  diagnostic: "diagnostics",
  errors: "diagnostics",
};

/** The action a model meant, forgiving case, `textDocument/`, separators and a few other names. */
export function normalizeAction(raw: string | undefined): LspAction | undefined {
  const a = (raw ?? "").trim().toLowerCase().replace(/^textdocument\//, "").replace(/[\s_-]/g, "");
  return (ACTIONS as readonly string[]).includes(a) ? a as LspAction : ACTION_ALIASES[a];
}

/** What every action works with. */
export interface Call {
  ctx: ToolContext;
  server: LspServerConfig;
  action: LspAction;
  /** The file's absolute path. */
  abs: string;
  /** The file as answers show it (relative inside the project). */
  shown: string;
  /** The file's content, as read before the call. */
  text: string;
  root: string;
  linesOf: LinesOf;
}

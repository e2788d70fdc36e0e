/** save_answer: the model's answer written to a new file as it is (tools.md, `save_answer`). */

import { errorReason } from "../lib/files.ts";
import type { Tool, ToolResult } from "../lib/tool.ts";

/** Input of save_answer, after coercion. */
export interface SaveAnswerInput {
  path: string;
}

/** The tool's description, as the model reads it. */
export const SAVE_ANSWER_DESCRIPTION =
  "Save an answer to a new file, exactly as written: the text of the message that calls this tool, or else your previous answer. Write the answer first, then call save_answer.";

/** The `path` field's description (tools.md, `save_answer`). */
export const PATH_DESCRIPTION =
  "The file to create, relative to the working directory. It must not exist yet.";

/** Which answer a call saves. */
export type Which = "this answer" | "the previous answer";

/** Characters of the first line the result quotes at most. */
export const FIRST_LINE_MAX = 120;

/** The output when the file is already there: nothing is written. */
export function existsText(path: string): string {
  return `[save_answer: ${path} already exists — nothing was written. Pick another name, or ask the user]`;
}

/** The output when there is no answer to save. */
export const NO_ANSWER_TEXT =
  "[save_answer: there is no answer to save yet — write the answer in your reply first, then call save_answer with the file name]";

/** The output when `path` is empty. */
export const NO_PATH_TEXT =
  "[save_answer: no file name — give path, the file to create, relative to the working directory]";

/** The output when the file cannot be written (`permission denied`, `not a directory`). */
export function saveErrorText(path: string, reason: string): string {
  return `[save_answer: cannot write ${path}: ${reason} — nothing was written]`;
}

/** `saved <which> to <path> (N bytes), starting with: <first line>`. */
export function savedText(which: Which, path: string, bytes: number, first: string): string {
  return `saved ${which} to ${path} (${bytes} bytes), starting with: ${first}`;
}

/** The first line of `text` that is not blank, trimmed, cut to {@linkcode FIRST_LINE_MAX}. */
export function firstTextLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
  const chars = [...line];
  return chars.length > FIRST_LINE_MAX ? chars.slice(0, FIRST_LINE_MAX - 1).join("") + "…" : line;
}

/** The text to save and which one it is: the calling message's, else the previous answer. */
export function answerToSave(
  callerText: string | undefined,
  previousAnswer: string | undefined,
): { text: string; which: Which } | undefined {
  if (callerText !== undefined && callerText.trim() !== "") {
    return { text: callerText, which: "this answer" };
  }
  if (previousAnswer !== undefined && previousAnswer.trim() !== "") {
    return { text: previousAnswer, which: "the previous answer" };
  }
  return undefined;
}

/** save_answer: writes the answer through `ctx.fs.writeAtomic`, never over an existing file. */
export const saveAnswer: Tool<SaveAnswerInput> = {
  name: "save_answer",
  kind: "edit",
  emoji: "💾",
  // Nothing is asked when there is nothing to save: the call only says so.
  asks: (_input, conversation) =>
    answerToSave(conversation?.callerText, conversation?.previousAnswer) !== undefined,
  declared: (config) => config.saveAnswerTool,
  description: SAVE_ANSWER_DESCRIPTION,
  parameters: {
    path: {
      type: "string",
      description: PATH_DESCRIPTION,
      aliases: ["file", "file_path"],
      path: true,
    },
  },
  summary: (input, conversation) => {
    const answer = answerToSave(conversation?.callerText, conversation?.previousAnswer);
    return answer ? `${input.path} (${answer.which})` : input.path;
  },
  async run(input, ctx) {
    const path = input.path;
    if (path.trim() === "") return { output: NO_PATH_TEXT, failed: true };
    const abs = ctx.fs.resolve(path);
    const locations = [abs];
    const fail = (output: string): ToolResult => ({ output, failed: true, locations });
    const answer = answerToSave(ctx.conversation?.callerText, ctx.conversation?.previousAnswer);
    if (!answer) return fail(NO_ANSWER_TEXT);
    try {
      if (await ctx.fs.stat(path) !== undefined) return fail(existsText(path));
    } catch (err) {
      return fail(saveErrorText(path, errorReason(err)));
    }
    const content = answer.text.endsWith("\n") ? answer.text : `${answer.text}\n`;
    const data = new TextEncoder().encode(content);
    try {
      await ctx.fs.writeAtomic(path, data);
    } catch (err) {
      return fail(saveErrorText(path, errorReason(err)));
    }
    return {
      output: savedText(answer.which, path, data.length, firstTextLine(answer.text)),
      locations,
    };
  },
};

/** ask_user questions of each type, as ask_user cleaned them: the fixtures of the answers' tests. */

import type { Question } from "../../lib/tool.ts";

/** A choice of three. */
export const colour: Question = {
  question: "Colour?",
  type: "choice",
  options: ["Red", "Green", "Blue"],
};
/** The choice with a default. */
export const colourDefault: Question = { ...colour, default: "Green" };
/** A multi of four. */
export const langs: Question = {
  question: "Languages?",
  type: "multi",
  options: ["Go", "Rust", "TypeScript", "Python"],
};
/** A confirm. */
export const sure: Question = { question: "Sure?", type: "confirm", options: [] };
/** A text. */
export const branch: Question = { question: "Branch?", type: "text", options: [] };

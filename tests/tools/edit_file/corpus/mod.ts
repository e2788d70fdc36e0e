/** Every case of edit_file's near-miss corpus, by category (see `case.ts`). */

import type { CorpusCase } from "./case.ts";
import { CONTROL_CASES } from "./controls.ts";
import { ELISION_CASES } from "./elision.ts";
import { ESCAPE_CASES } from "./escapes.ts";
import { FENCE_CASES } from "./fences.ts";
import { INTERIOR_CASES } from "./interior.ts";
import { LINE_NUMBER_CASES } from "./line_numbers.ts";
import { PLACEHOLDER_CASES } from "./placeholder.ts";
import { PLACEMENT_CASES } from "./placement.ts";
import { REFUSAL_CASES } from "./refusals.ts";
import { TYPOGRAPHY_CASES } from "./typography.ts";
import { WHITESPACE_CASES } from "./whitespace.ts";

export type { Category, CorpusCase } from "./case.ts";

/** The whole corpus. */
export const CORPUS: CorpusCase[] = [
  ...WHITESPACE_CASES,
  ...PLACEMENT_CASES,
  ...PLACEHOLDER_CASES,
  ...LINE_NUMBER_CASES,
  ...FENCE_CASES,
  ...ESCAPE_CASES,
  ...TYPOGRAPHY_CASES,
  ...INTERIOR_CASES,
  ...ELISION_CASES,
  ...REFUSAL_CASES,
  ...CONTROL_CASES,
];

/**
 * One case of edit_file's near-miss corpus: a file, the edits a model sent, and what must come of
 * them — APPLY (the exact file afterwards) or REFUSE (the file untouched). The corpus is run by
 * `tests/tools/edit_file/mod_corpus_test.ts` through the tool, and by `tests/e2e/edit_file_test.ts`
 * through the real `mm -p`.
 */

/** What a case exercises: a pass, a wrong edit made impossible, or a control. */
export type Category =
  | "whitespace"
  | "placement"
  | "placeholder"
  | "lineNumbers"
  | "fences"
  | "escapes"
  | "typography"
  | "interior"
  | "elision"
  | "refusals"
  | "controls";

/** One edit as a model sends it. */
export interface CorpusEdit {
  old: string;
  new: string;
}

/** One case of the corpus. */
export interface CorpusCase {
  name: string;
  category: Category;
  /** The file's name (its extension tells the tool its language). */
  path: string;
  file: string;
  edits: CorpusEdit[];
  /** APPLY: the file's exact text afterwards. Absent: REFUSE, and the file is untouched. */
  want?: string;
  /** Words the output must hold: a headline's relaxation, a refusal's reason or excerpt. */
  says?: string;
}

/** The cases of one category, built with {@linkcode apply} and {@linkcode refuse}. */
export function category(name: Category) {
  const cases: CorpusCase[] = [];
  return {
    cases,
    /** A case the tool must apply, leaving exactly `want`. */
    apply(
      title: string,
      path: string,
      file: string,
      edits: CorpusEdit[],
      want: string,
      says?: string,
    ): void {
      cases.push({ name: title, category: name, path, file, edits, want, says });
    },
    /** A case the tool must refuse, leaving the file as it was. */
    refuse(title: string, path: string, file: string, edits: CorpusEdit[], says?: string): void {
      cases.push({ name: title, category: name, path, file, edits, says });
    },
  };
}

/** One edit. */
export function edit(old: string, neu: string): CorpusEdit[] {
  return [{ old, new: neu }];
}

/** The headline's words for one edit matched ignoring whitespace. */
export const WHITESPACE = "· 1 matched ignoring whitespace";
/** The spec's not-found refusal. */
export const NOT_FOUND = "old text not found — it must match the file exactly";
/** The ambiguous refusal. */
export const AMBIGUOUS = "old text appears";

/** The spec's Go file, which many cases edit. */
export const GO = "package main\n\nfunc main() {\n\tcount := 1\n\tprint(count)\n}\n";
/** {@linkcode GO} with `count := 2`. */
export const GO2 = GO.replace("count := 1", "count := 2");

/**
 * An elided `old` for edit_file: a `...` line (or `// ...`, `# ... existing code ...`) between two
 * real pieces, the same marker kept in `new`. Applied piece by piece, each piece found on its own
 * and unique, in order, and only when the lines left out stay inside the block old's first line
 * opens (docs/tools.md, "Elisions").
 */

import type { FileText, Located, Pass, PassResult, Piece, Relaxation } from "./file_text.ts";
import { isElisionMarker } from "./placeholder.ts";
import { isBlank, leadingBlanks } from "./reindent.ts";

/** Why an elided old was refused, with what the refusal says. */
export type ElisionFault =
  | {
    kind: "elision";
    fault: "ambiguous";
    marker: string;
    piece: number;
    count: number;
    lines: number[];
  }
  | { kind: "elision"; fault: "order"; marker: string }
  | {
    kind: "elision";
    fault: "outside";
    marker: string;
    opener: number;
    first: number;
    last: number;
  };

/** A piece of old not found in the file: the refusal shows the region closest to it. */
export interface MissingPiece {
  kind: "missingPiece";
  piece: string;
}

/** old and new split at the marker lines: the pieces between them, and the markers. */
interface Split {
  pieces: string[];
  markers: string[];
}

function split(text: string, path: string): Split {
  const pieces: string[] = [];
  const markers: string[] = [];
  let piece: string[] = [];
  for (const line of text.split("\n")) {
    if (isElisionMarker(line, path)) {
      pieces.push(piece.join("\n"));
      markers.push(line.trim());
      piece = [];
    } else piece.push(line);
  }
  pieces.push(piece.join("\n"));
  return { pieces, markers };
}

/** How many brackets a line opens, less those it closes. */
function brackets(line: string): number {
  let n = 0;
  for (const c of line) {
    if (c === "{" || c === "(" || c === "[") n++;
    else if (c === "}" || c === ")" || c === "]") n--;
  }
  return n;
}

/** The offset of the first character from `offset` on that is not a space, tab or newline. */
function firstText(file: FileText, offset: number): number {
  const rest = file.text.slice(offset, offset + 4096);
  return offset + (rest.length - rest.replace(/^[ \t\n]+/, "").length);
}

/** The width of an indentation, a tab counting as 8. */
function width(line: string): number {
  let n = 0;
  for (const c of leadingBlanks(line)) n += c === "\t" ? 8 - (n % 8) : 1;
  return n;
}

const STRICTNESS: Pass[] = ["exact", "edges", "indent"];

/**
 * old resolved piece by piece, when it is elided: undefined when it is not (no marker between two
 * pieces that hold text, or new without the same markers in the same order); else the edit, a
 * fault, or the piece that is not in the file. `resolve` finds one piece (without elisions).
 */
export function resolveElided(
  file: FileText,
  old: string,
  neu: string,
  resolve: (old: string, neu: string) => PassResult,
): Located | ElisionFault | MissingPiece | undefined {
  const o = split(old, file.path);
  if (o.markers.length === 0 || o.pieces.some((p) => p.trim() === "")) return undefined;
  const n = split(neu, file.path);
  if (n.markers.length !== o.markers.length || n.markers.some((m, i) => m !== o.markers[i])) {
    return undefined;
  }
  const marker = o.markers[0];
  const found: Located[] = [];
  for (let j = 0; j < o.pieces.length; j++) {
    const r = resolve(o.pieces[j], n.pieces[j]);
    if (r === undefined) return { kind: "missingPiece", piece: o.pieces[j] };
    if (r.kind === "ambiguous") {
      return {
        kind: "elision",
        fault: "ambiguous",
        marker,
        piece: j + 1,
        count: r.count,
        lines: r.lines,
      };
    }
    if (found.length && r.start < found[found.length - 1].end) {
      return { kind: "elision", fault: "order", marker };
    }
    found.push(r);
  }
  // The lines left out must stay inside the block the first line opens.
  const openerText = file.text.slice(found[0].start);
  const openerLine = file.lineIndex(
    found[0].start + (openerText.length - openerText.trimStart().length),
  );
  const floor = width(file.lines[openerLine]);
  // Brackets opened from the first line on: a line as indented as the first one is inside while
  // some are still open (Go's `case` under its `switch`).
  let open = 0;
  let at = openerLine;
  const openBefore = (line: number) => {
    for (; at < line; at++) open += brackets(file.lines[at]);
    return open;
  };
  for (let j = 0; j + 1 < found.length; j++) {
    const from = file.lineIndex(Math.max(found[j].start, found[j].end - 1)) + 1;
    const to = file.lineIndex(firstText(file, found[j + 1].start)) - 1;
    for (let i = from; i <= to; i++) {
      if (isBlank(file.lines[i])) continue;
      const w = width(file.lines[i]);
      if (w < floor || (w === floor && openBefore(i) <= 0)) {
        return {
          kind: "elision",
          fault: "outside",
          marker,
          opener: openerLine + 1,
          first: from + 1,
          last: to + 1,
        };
      }
    }
  }
  // Each piece replaced on its own; one that new empties takes a line break with it.
  const pieces: Piece[] = found.map((f) => {
    let { start, end } = f;
    if (f.replacement === "") {
      if (file.text[end] === "\n") end++;
      else if (file.text[start - 1] === "\n") start--;
    }
    return { start, end, replacement: f.replacement };
  });
  let replacement = "";
  for (let j = 0; j < pieces.length; j++) {
    replacement += pieces[j].replacement;
    if (j + 1 < pieces.length) replacement += file.text.slice(pieces[j].end, pieces[j + 1].start);
  }
  const relaxed = new Set<Relaxation>(found.flatMap((f) => f.relaxed ?? []));
  relaxed.add("elision");
  const pass = found.map((f) => f.pass).reduce((a, b) =>
    STRICTNESS.indexOf(b) > STRICTNESS.indexOf(a) ? b : a
  );
  return {
    kind: "found",
    pass,
    start: pieces[0].start,
    end: pieces[pieces.length - 1].end,
    replacement,
    relaxed: [...relaxed],
    pieces,
  };
}

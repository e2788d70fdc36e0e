/** The terminal rendering of Markdown (lib/frontend/terminal/markdown.ts). */

import assert from "node:assert/strict";
import { assertEquals } from "../../helpers/assert.ts";
import {
  boundNesting,
  fitColumns,
  hyperlinksSupported,
  lex,
  loadLexer,
  MarkdownStream,
  MAX_DEPTH,
  plainOf,
  renderTokens,
} from "../../../lib/frontend/terminal/markdown.ts";
import { textWidth } from "../../../lib/frontend/terminal/width.ts";

const lexer = await loadLexer();
const NO_LINKS = { hyperlinks: false };

/** `src` drawn at `width`, without its escapes. */
function shown(src: string, width = 60, hyperlinks = false): string[] {
  return renderTokens(lex(lexer, src), width, { hyperlinks }).map(plainOf);
}

Deno.test("markdown: blocks", async (t) => {
  await t.step("a heading without its #, bold", () => {
    const rows = renderTokens(lex(lexer, "## Title"), 40, NO_LINKS);
    assertEquals(rows, ["\x1b[1mTitle\x1b[0m"]);
  });
  await t.step("emphasis, strong, inline code", () => {
    const [row] = renderTokens(lex(lexer, "a *b* **c** `d`"), 40, NO_LINKS);
    assertEquals(row, "a \x1b[3mb\x1b[0m \x1b[1mc\x1b[0m \x1b[36md\x1b[0m");
  });
  await t.step("a fenced code block: no fences, its language named, its lines indented", () => {
    assertEquals(shown("```ts\nlet x = 1;\n```"), ["ts", "  let x = 1;"]);
  });
  await t.step("an unclosed fence is code to the end", () => {
    assertEquals(shown("```py\nprint(1)\nprint(2)"), ["py", "  print(1)", "  print(2)"]);
  });
  await t.step("nested lists, ordered and not", () => {
    assertEquals(shown("- a\n- b\n  - c\n    1. d\n    2. e"), [
      "• a",
      "• b",
      "  ◦ c",
      "    1. d",
      "    2. e",
    ]);
  });
  await t.step("a block quote", () => {
    assertEquals(shown("> quoted **text**"), ["│ quoted text"]);
  });
  await t.step("a rule fills the width", () => {
    assertEquals(shown("---", 10), ["─".repeat(10)]);
  });
  await t.step("blocks are set apart by one empty row", () => {
    assertEquals(shown("# A\n\n\n\npara"), ["A", "", "para"]);
  });
  await t.step("entities decoded", () => {
    assertEquals(shown("a &amp; b &lt;c&gt;"), ["a & b <c>"]);
  });
  await t.step("paragraphs wrap at spaces, no row ends with one", () => {
    const rows = shown("one two three four five six seven", 10);
    assertEquals(rows, ["one two", "three four", "five six", "seven"]);
  });
});

Deno.test("markdown: links", async (t) => {
  await t.step("the URL is shown after the text", () => {
    assertEquals(shown("see [docs](https://x.dev/a)"), ["see docs (https://x.dev/a)"]);
  });
  await t.step("an autolink shows its URL once", () => {
    assertEquals(shown("<https://x.dev>"), ["https://x.dev"]);
  });
  await t.step("OSC 8 around the text when the terminal takes it", () => {
    const [row] = renderTokens(lex(lexer, "[d](https://x.dev)"), 40, { hyperlinks: true });
    assert(row.startsWith("\x1b]8;;https://x.dev\x1b\\"), row);
    assertEquals(plainOf(row), "d (https://x.dev)");
  });
  await t.step("none without", () => {
    const [row] = renderTokens(lex(lexer, "[d](https://x.dev)"), 40, NO_LINKS);
    assert(!row.includes("\x1b]8"), row);
  });
  await t.step("hyperlinks decided by the environment", () => {
    assertEquals(hyperlinksSupported({ TERM_PROGRAM: "WezTerm" }), true);
    assertEquals(hyperlinksSupported({ TERM_PROGRAM: "WezTerm", TMUX: "/tmp/t,1,0" }), false);
    assertEquals(hyperlinksSupported({ TMUX: "/tmp/t,1,0", MM_HYPERLINKS: "1" }), true);
    assertEquals(hyperlinksSupported({ VTE_VERSION: "7200" }), true);
    assertEquals(hyperlinksSupported({ TERM: "xterm-256color" }), false);
    assertEquals(hyperlinksSupported({ KITTY_WINDOW_ID: "1", MM_HYPERLINKS: "0" }), false);
  });
});

Deno.test("markdown: tables", async (t) => {
  await t.step("aligned columns, header ruled", () => {
    assertEquals(shown("| a | bb |\n|---|---:|\n| ccc | 1 |"), [
      " a   │ bb ",
      "─────┼────",
      " ccc │  1 ",
    ]);
  });
  await t.step("wide characters count two columns", () => {
    const rows = shown("| 名前 | x |\n|---|---|\n| a | y |");
    assertEquals(rows[0], " 名前 │ x ");
    assertEquals(rows[2], " a    │ y ");
  });
  await t.step("a 2,000-column table fits the width", () => {
    const cols = 200;
    const head = "|" + Array.from({ length: cols }, (_, i) => `column${i}`).join("|") + "|";
    const rule = "|" + "---|".repeat(cols);
    const row = "|" + Array.from({ length: cols }, () => "value").join("|") + "|";
    assert(head.length > 1500);
    const rows = shown([head, rule, row].join("\n"), 80);
    // Too many columns for 80: drawn as text, wrapped; never past the width.
    for (const r of rows) assert(textWidth(r) <= 80, r);
    const few = "| " + "x".repeat(2000) + " | b |\n|---|---|\n| c | d |";
    const drawn = shown(few, 50);
    for (const r of drawn) assert(textWidth(r) <= 50, r);
    assert(drawn.length > 40, "the wide cell wraps");
  });
  await t.step("columns shrink from the widest", () => {
    assertEquals(fitColumns([5, 40, 3], 30), [5, 22, 3]);
    assertEquals(fitColumns([5, 6], 30), [5, 6]);
  });
});

Deno.test("markdown: bad input", async (t) => {
  await t.step("10,000 nested list items: drawn at a bounded depth", () => {
    let src = "";
    for (let i = 0; i < 10_000; i++) src += "  ".repeat(i % 50) + `- item ${i}\n`;
    const rows = shown(src, 80);
    assertEquals(rows.length, 10_000);
    const deepest = Math.max(...rows.map((r) => r.length - r.trimStart().length));
    assert(deepest <= 2 * MAX_DEPTH + 2, `indented ${deepest}`);
  });
  await t.step("5,000 nested quotes: bounded, no stack overflow", () => {
    const rows = shown(">".repeat(5000) + " deep", 80);
    assertEquals(rows.at(-1), "│ ".repeat(MAX_DEPTH) + "deep");
  });
  await t.step("a fence keeps its code's indentation", () => {
    const code = "```\n" + " ".repeat(40) + "x\n```\n" + " ".repeat(40) + "- y";
    const bounded = boundNesting(code);
    assert(bounded.includes(" ".repeat(40) + "x"));
    assert(!bounded.includes(" ".repeat(20) + "- y"));
  });
  await t.step("a lexer that throws: the text as it is", () => {
    const rows = renderTokens(
      lex(() => {
        throw new RangeError("Maximum call stack size exceeded");
      }, "# a\nb"),
      40,
      NO_LINKS,
    );
    assertEquals(rows, ["# a", "b"]);
  });
});

Deno.test("markdown: streaming", async (t) => {
  await t.step("a block is given once the next one starts", () => {
    const s = new MarkdownStream(lexer);
    assertEquals(s.append("# Title"), []);
    assertEquals(s.append("\n\nSome").map((b) => b.type), ["heading"]);
    assertEquals(s.pending, "Some");
  });
  await t.step("blocks in order, the last at the end", () => {
    const src = "# T\n\npara one\n\n```js\nx\n```\n\n- a\n- b\n\nlast";
    const s = new MarkdownStream(lexer);
    const types: string[] = [];
    for (const ch of src) for (const b of s.append(ch)) types.push(b.type);
    assertEquals(types, ["heading", "paragraph", "code", "list"]);
    assertEquals(s.pending, "last");
    assertEquals(s.end().map((b) => b.type), ["paragraph"]);
  });
  await t.step("an open fence is held until it closes", () => {
    const s = new MarkdownStream(lexer);
    assertEquals(s.append("```\n# not a heading\n\npara\n"), []);
    assertEquals(s.append("```\nafter\n").map((b) => b.type), ["code"]);
  });
  await t.step("drawn in pieces as drawn whole", () => {
    const src = "# T\n\na *b* c\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n> q\n\ntail";
    const s = new MarkdownStream(lexer);
    const tokens = [];
    for (const piece of src.match(/[\s\S]{1,3}/g)!) tokens.push(...s.append(piece));
    tokens.push(...s.end());
    assertEquals(
      renderTokens(tokens, 40, NO_LINKS),
      renderTokens(lex(lexer, src), 40, NO_LINKS),
    );
  });
});

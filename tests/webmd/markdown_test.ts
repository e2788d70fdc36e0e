import { assertEquals } from "../helpers/assert.ts";
import {
  codeSpan,
  escapeInline,
  escapeLineStart,
  fencedBlock,
  htmlToMarkdown,
  type MarkdownOptions,
} from "../../lib/webmd/markdown.ts";
import {
  BLOG_POST,
  BLOG_POST_MD,
  DOCS_PAGE,
  DOCS_PAGE_MD,
  NEWS_PAGE,
  NEWS_PAGE_MD,
} from "../fixtures/webmd/pages.ts";

const BASE = "https://example.com/docs/page.html";

/** The Markdown of `html`, links resolved against {@linkcode BASE}. */
function md(html: string, options: MarkdownOptions = {}): string {
  return htmlToMarkdown(html, { baseUrl: BASE, ...options });
}

Deno.test("conversion to Markdown", async (t) => {
  await t.step("h1–h6 → # to ######, one line", () => {
    assertEquals(
      md("<h1>One</h1><h2>Two</h2><h3>Three</h3><h4>Four</h4><h5>Five</h5><h6>Six <br>lines</h6>"),
      "# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six lines\n",
    );
  });

  await t.step("p → paragraph, one blank line between blocks, white space collapsed", () => {
    assertEquals(
      md("<p>  One\n   two  </p>\n\n<p>Three</p>text<div>four</div>"),
      "One two\n\nThree\n\ntext\n\nfour\n",
    );
  });

  await t.step("strong/b → **…**, em/i → *…*, spaces kept outside", () => {
    assertEquals(
      md(
        "<p>a<strong> bold </strong>b <b>B</b> <em>em</em> <i>i</i> <b><i>both</i></b> <b>x<b>y</b></b></p>",
      ),
      "a **bold** b **B** *em* *i* ***both*** **xy**\n",
    );
  });

  await t.step("inline code, kbd, samp, tt → a backtick span longer than any run inside", () => {
    assertEquals(
      md("<p><code>x = 1</code> <kbd>Ctrl</kbd> <samp>out</samp> <tt>tt</tt></p>"),
      "`x = 1` `Ctrl` `out` `tt`\n",
    );
    assertEquals(
      md("<p><code>a`b</code> <code>``x``</code> <code>`edge</code></p>"),
      "``a`b`` ``` ``x`` ``` `` `edge ``\n",
    );
    assertEquals(codeSpan("a``b"), "```a``b```");
    assertEquals(md("<p>no<code>  </code>code</p>"), "no code\n");
  });

  await t.step("pre → fenced block with the language, a fence longer than any run inside", () => {
    assertEquals(
      md('<pre><code class="language-python">def f():\n    return 1\n</code></pre>'),
      "```python\ndef f():\n    return 1\n```\n",
    );
    assertEquals(md('<pre class="lang-sh">ls\n</pre>'), "```sh\nls\n```\n");
    assertEquals(md("<pre>a ```` b</pre>"), "`````\na ```` b\n`````\n");
    assertEquals(md("<pre>line 1<br>line *2* &lt;x&gt;</pre>"), "```\nline 1\nline *2* <x>\n```\n");
    assertEquals(fencedBlock("x", "go"), "```go\nx\n```");
  });

  await t.step("br → hard break with a backslash, none at the ends", () => {
    assertEquals(md("<p><br>one<br>two <br> three<br></p>"), "one\\\ntwo\\\nthree\n");
  });

  await t.step("hr → ---", () => {
    assertEquals(md("<p>a</p><hr><p>b</p>"), "a\n\n---\n\nb\n");
  });

  await t.step("blockquote → > on every line, nested", () => {
    assertEquals(
      md("<blockquote><p>one</p><p>two<br>three</p><blockquote>deep</blockquote></blockquote>"),
      "> one\n>\n> two\\\n> three\n>\n> > deep\n",
    );
  });

  await t.step("a → [text](url), the URL without text, text only for javascript:", () => {
    assertEquals(
      md(
        '<p><a href="../guide/">Guide</a>, <a href="#top"></a>, <a href="javascript:void(0)">Menu</a>, ' +
          '<a href="https://x.org/a_(b)">wiki</a>, <a href="/x(y">odd</a>, <a>anchor</a></p>',
      ),
      "[Guide](https://example.com/guide/), <https://example.com/docs/page.html#top>, Menu, " +
        "[wiki](https://x.org/a_(b)), [odd](https://example.com/x%28y), anchor\n",
    );
  });

  await t.step("a link around blocks links each of them", () => {
    assertEquals(
      md('<a href="/post"><h2>Title</h2><p>Summary</p></a>'),
      "## [Title](https://example.com/post)\n\n[Summary](https://example.com/post)\n",
    );
  });

  await t.step("img → ![alt](src), ![](src) without alt, alt only for a data: URI", () => {
    assertEquals(
      md(
        '<p><img src="cat.png" alt="A [cat]"> <img src="/dog.png"> <img src="data:image/png;base64,AA" alt="dot"> ' +
          '<img src="data:image/gif;base64,AA"> <a href="/big.png"><img src="/small.png" alt="zoom"></a></p>',
      ),
      "![A \\[cat\\]](https://example.com/docs/cat.png) ![](https://example.com/dog.png) dot " +
        "[![zoom](https://example.com/small.png)](https://example.com/big.png)\n",
    );
  });

  await t.step("ul/ol → - and N. from start, nested lists indented by the parent marker", () => {
    assertEquals(
      md(
        "<ul><li>a<ul><li>b<ul><li>c</li></ul></li></ul></li><li>d</li></ul>" +
          '<ol start="9"><li>nine<ul><li>sub</li></ul></li><li>ten<ol><li>x</li></ol></li></ol>',
      ),
      "- a\n  - b\n    - c\n- d\n\n9. nine\n   - sub\n10. ten\n    1. x\n",
    );
    assertEquals(
      md('<ol start="0"><li>zero</li></ol><ol start="x"><li>one</li></ol>'),
      "0. zero\n\n1. one\n",
    );
  });

  await t.step("list items holding paragraphs and code; empty items left out", () => {
    assertEquals(
      md("<ul><li><p>one</p><p>more</p></li><li></li><li><pre>code</pre></li></ul>"),
      "- one\n\n  more\n- ```\n  code\n  ```\n",
    );
    assertEquals(
      md("<ol><li>a</li><ul><li>under a</li></ul><li>b</li></ol>"),
      "1. a\n   - under a\n2. b\n",
    );
  });

  await t.step("taskList: a checkbox starting an item → [ ] / [x]; otherwise dropped", () => {
    const html =
      '<ul><li><input type="checkbox" checked> done</li><li><input type="checkbox"> todo</li>' +
      '<li>plain <input type="checkbox"></li></ul>';
    assertEquals(md(html, { taskList: true }), "- [x] done\n- [ ] todo\n- plain\n");
    assertEquals(md(html), "- done\n- todo\n- plain\n");
  });

  await t.step("strikethrough: del, s, strike → ~~text~~; otherwise the plain text", () => {
    const html = "<p><del>a</del> <s>b</s> <strike>c</strike></p>";
    assertEquals(md(html, { strikethrough: true }), "~~a~~ ~~b~~ ~~c~~\n");
    assertEquals(md(html), "a b c\n");
  });

  await t.step("simple table → GFM: first row as header, | escaped, <br> in cells", () => {
    assertEquals(
      md(
        "<table><tr><td>Name</td><td>Value</td></tr><tr><td>a|b</td><td>one<br>two</td></tr>" +
          "<tr><td><p>p1</p><p>p2</p></td></tr></table>",
      ),
      "| Name | Value |\n| --- | --- |\n| a\\|b | one<br>two |\n| p1<br>p2 |  |\n",
    );
    assertEquals(
      md(
        "<table><thead><tr><th>H</th></tr></thead><tfoot><tr><td>F</td></tr></tfoot><tbody><tr><td>B</td></tr></tbody></table>",
      ),
      "| H |\n| --- |\n| B |\n| F |\n",
    );
  });

  await t.step("a table cell holds inline content: headings as text, code a span per line", () => {
    assertEquals(
      md(
        "<table><tr><th><h3>Head</h3></th><th>b</th></tr>" +
          "<tr><td><pre>a = 1\n  b</pre></td><td>x</td></tr></table>",
      ),
      "| Head | b |\n| --- | --- |\n| `a = 1`<br>`b` | x |\n",
    );
  });

  await t.step("<caption> → a paragraph above the table", () => {
    assertEquals(
      md(
        "<table><caption>Prices <b>2024</b></caption><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>",
      ),
      "Prices **2024**\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n",
    );
  });

  await t.step("rowspan/colspan: tables html keeps raw HTML, flatten copies spanned cells", () => {
    const html =
      '<table>\n  <tr><th colspan="2"> Both </th></tr>\n  <tr><td rowspan="2">left</td><td>r1</td></tr>\n' +
      '  <tr><td><a href="/r2">r2</a></td></tr>\n</table>';
    assertEquals(
      md(html),
      '<table><tbody><tr><th colspan="2">Both</th></tr><tr><td rowspan="2">left</td><td>r1</td></tr>' +
        '<tr><td><a href="https://example.com/r2">r2</a></td></tr></tbody></table>\n',
    );
    assertEquals(md(html, { tables: "html" }), md(html));
    assertEquals(
      md(html, { tables: "flatten" }),
      "| Both | Both |\n| --- | --- |\n| left | r1 |\n| left | [r2](https://example.com/r2) |\n",
    );
  });

  await t.step("a nested table: raw HTML, or flattened into its cell", () => {
    const html = "<table><tr><th>Outer</th></tr><tr><td><table><tr><td>a</td><td>b</td></tr>" +
      "<tr><td>c</td></tr></table></td></tr></table>";
    assertEquals(
      md(html),
      "<table><tbody><tr><th>Outer</th></tr><tr><td><table><tbody><tr><td>a</td><td>b</td></tr>" +
        "<tr><td>c</td></tr></tbody></table></td></tr></tbody></table>\n",
    );
    assertEquals(md(html, { tables: "flatten" }), "| Outer |\n| --- |\n| a b<br>c |\n");
  });

  await t.step("a table of one cell lays out its content", () => {
    assertEquals(
      md("<table><tr><td><h2>Title</h2><p>Body</p></td></tr></table>"),
      "## Title\n\nBody\n",
    );
  });

  await t.step(
    "unknown element: tags dropped, text kept; a container when it holds a block",
    () => {
      assertEquals(
        md(
          "<p>a <x-tag>custom</x-tag> <span>span</span> <abbr>abbr</abbr></p><x-card><p>one</p><p>two</p></x-card>",
        ),
        "a custom span abbr\n\none\n\ntwo\n",
      );
      assertEquals(md("<span>before<div>inside</div>after</span>"), "before\n\ninside\n\nafter\n");
    },
  );

  await t.step("empty element: nothing, no blank line", () => {
    assertEquals(
      md(
        "<p>a</p><p></p><div> </div><p>&nbsp;</p><h2></h2><ul><li></li></ul><blockquote></blockquote>" +
          "<pre>\n</pre><table></table><b></b><p>b</p>",
      ),
      "a\n\nb\n",
    );
    assertEquals(md(""), "");
  });

  await t.step("escaping: \\ * ` [ ] < and _ outside words", () => {
    assertEquals(
      md("<p>a\\b *c* `d` [e] &lt;f&gt; snake_case _g_ h_ __init__ 2*3</p>"),
      "a\\\\b \\*c\\* \\`d\\` \\[e\\] \\<f> snake_case \\_g\\_ h\\_ \\_\\_init\\_\\_ 2\\*3\n",
    );
    assertEquals(escapeInline("x_y _z"), "x_y \\_z");
  });

  await t.step("escaping: a line starting with # > - + = | or N.", () => {
    assertEquals(
      md(
        "<p># h</p><p>&gt; q</p><p>- l</p><p>+ p</p><p>= e</p><p>| t</p><p>12. n</p><p>x<br>- y</p><p>mid # - ok</p>",
      ),
      "\\# h\n\n\\> q\n\n\\- l\n\n\\+ p\n\n\\= e\n\n\\| t\n\n12\\. n\n\nx\\\n\\- y\n\nmid # - ok\n",
    );
    assertEquals(escapeLineStart("3. x"), "3\\. x");
    assertEquals(md("<ul><li>- dash</li></ul>"), "- \\- dash\n");
  });

  await t.step("invalid HTML is repaired by the HTML5 parser, then converted", () => {
    assertEquals(
      md(
        "<p>one<p>two <b>bold <i>both</b> italic</i><ul><li>a<li>b</ul><table><td>c1<td>c2</table>",
      ),
      "one\n\ntwo **bold *both*** *italic*\n\n- a\n- b\n\n| c1 | c2 |\n| --- | --- |\n",
    );
  });

  await t.step("relative URLs stay as written without a base", () => {
    assertEquals(htmlToMarkdown('<a href="/x">x</a>'), "[x](/x)\n");
  });

  await t.step("exactly one final newline", () => {
    assertEquals(md("<p>a</p>\n\n\n"), "a\n");
    assertEquals(md("<pre>code\n\n\n</pre>"), "```\ncode\n```\n");
  });

  await t.step("a blog post", () => {
    assertEquals(
      htmlToMarkdown(BLOG_POST, { baseUrl: "https://k33g.org/posts/parsing.html" }),
      BLOG_POST_MD,
    );
  });

  await t.step("a documentation page", () => {
    assertEquals(
      htmlToMarkdown(DOCS_PAGE, { baseUrl: "https://mm.dev/docs/tools/fetch/", taskList: true }),
      DOCS_PAGE_MD,
    );
  });

  await t.step("a news page with a cookie banner, navigation and ads", () => {
    assertEquals(
      htmlToMarkdown(NEWS_PAGE, { baseUrl: "https://news.example/local/library" }),
      NEWS_PAGE_MD,
    );
  });
});

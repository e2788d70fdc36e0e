import { parse, serializeOuter } from "npm:parse5@8.1.1";
import { assertEquals } from "../helpers/assert.ts";
import { cleanTree, REMOVED_ROLES, REMOVED_TAGS } from "../../lib/webmd/clean.ts";
import { htmlToMarkdown } from "../../lib/webmd/markdown.ts";

/** The body of `html` once cleaned, as HTML. */
function cleaned(html: string): string {
  const doc = parse(`<!DOCTYPE html><html><head></head><body>${html}</body></html>`);
  cleanTree(doc);
  // deno-lint-ignore no-explicit-any
  const body = (doc.childNodes[0] as any).childNodes[1];
  return serializeOuter(body).replace(/^<body>|<\/body>$/g, "");
}

Deno.test("removal before conversion", async (t) => {
  await t.step("every element of the Removed row, with its content", () => {
    const removable = [...REMOVED_TAGS].filter((tag) =>
      !["meta", "link", "base", "embed", "title", "template", "style", "script", "noscript"]
        .includes(tag)
    );
    for (const tag of removable) {
      assertEquals(cleaned(`<p>kept</p><${tag}>gone</${tag}>`), "<p>kept</p>", tag);
    }
    assertEquals(
      cleaned(
        "<script>x()</script><style>p{}</style><noscript>n</noscript><template><p>t</p></template>" +
          '<meta name="a"><link rel="x"><base href="/"><title>t</title><embed src="e"><p>kept</p>',
      ),
      "<p>kept</p>",
    );
  });

  await t.step("inputs other than checkboxes", () => {
    assertEquals(
      cleaned(
        '<p><input type="text"><input><input type="hidden" value="h"><input type="CHECKBOX" checked name="n"></p>',
      ),
      '<p><input type="CHECKBOX" checked=""></p>',
    );
  });

  await t.step("a footer outside article and main; inside, kept", () => {
    assertEquals(cleaned("<footer>site</footer><p>x</p>"), "<p>x</p>");
    assertEquals(
      cleaned("<article><footer>post</footer></article><main><div><footer>m</footer></div></main>"),
      "<article><footer>post</footer></article><main><div><footer>m</footer></div></main>",
    );
  });

  await t.step("HTML comments and the doctype", () => {
    assertEquals(cleaned("<p>a<!-- hidden -->b</p><!-- c -->"), "<p>ab</p>");
  });

  await t.step("ARIA roles navigation banner complementary search contentinfo dialog", () => {
    for (const role of REMOVED_ROLES) {
      assertEquals(cleaned(`<div role="${role}">x</div><p>y</p>`), "<p>y</p>", role);
    }
    assertEquals(cleaned('<div role="main">x</div>'), "<div>x</div>");
  });

  await t.step('aria-hidden="true" and hidden', () => {
    assertEquals(
      cleaned('<p aria-hidden="true">a</p><p aria-hidden="false">b</p><p hidden>c</p>'),
      "<p>b</p>",
    );
  });

  await t.step("class and id words, and a few variants", () => {
    const marked = [
      'class="ad"',
      'class="ads"',
      'class="advert"',
      'class="top-advertisement"',
      'class="sponsor"',
      'class="is-sponsored"',
      'class="promo"',
      'id="cookie-banner"',
      'class="cookies"',
      'class="consent"',
      'class="gdpr"',
      'class="newsletter"',
      'class="subscribe-box"',
      'class="popup"',
      'class="modal fade"',
      'class="share"',
      'class="social-links"',
      'class="breadcrumb"',
      'class="nav"',
      'class="navbar-dark"',
      'id="navigation"',
      'class="main-menu"',
      'class="sidebar"',
      'class="side-bar"',
      'class="skiplink"',
      'class="skip-link"',
      'class="shareButtons"',
      'id="AdSlot"',
    ];
    for (const attrs of marked) {
      assertEquals(cleaned(`<div ${attrs}>x</div><p>y</p>`), "<p>y</p>", attrs);
    }
    const unmarked = ['class="add-to-cart"', 'class="header"', 'class="shared"', 'id="admin"'];
    for (const attrs of unmarked) {
      assertEquals(cleaned(`<div ${attrs}>x</div>`), "<div>x</div>", attrs);
    }
  });

  await t.step("classes sr-only visually-hidden screen-reader-text", () => {
    assertEquals(
      cleaned(
        '<p>a<span class="sr-only">b</span><span class="visually-hidden">c</span>' +
          '<span class="screen-reader-text">d</span></p>',
      ),
      "<p>a</p>",
    );
  });

  await t.step("inline styles: display none and opacity 0 remove everything inside", () => {
    assertEquals(
      cleaned(
        '<p>a</p><div style="display:none"><p style="display:block">b</p></div>' +
          '<p style="DISPLAY:NONE">c</p><p style="opacity: 0%">d</p><p style="opacity:.0">e</p>' +
          '<p style="opacity: 0.5">f</p><p style="display: none; /* x */ display: block">g</p>',
      ),
      "<p>a</p><p>f</p><p>g</p>",
    );
  });

  await t.step("visibility and font-size 0 hide text a descendant may show again", () => {
    assertEquals(
      cleaned(
        '<div style="visibility:hidden">a<span style="visibility: visible">b</span>' +
          '<img src="x.png" alt="x"></div><p style="visibility:collapse">c</p>' +
          '<div style="font-size:0">d<span style="font-size:2em">e</span>' +
          '<span style="font-size:1rem">f</span><img src="y.png" alt="y"></div>',
      ),
      '<div><span>b</span></div><p></p><div><span></span><span>f</span><img src="y.png" alt="y"></div>',
    );
  });

  await t.step("html and body are never removed by their style (hidden until scripts run)", () => {
    assertEquals(
      htmlToMarkdown('<html style="visibility:hidden"><body style="display:none"><p>page</p>'),
      "page\n",
    );
  });

  await t.step("invisible characters go from text and from the attributes kept", () => {
    assertEquals(
      cleaned('<p>a\u200b\u{e0041}b<a href="/x\u202e">l\u00adink</a></p><p>\u2060</p>'),
      '<p>ab<a href="/x">link</a></p><p></p>',
    );
  });

  await t.step("an element matched by class/id is kept when it holds main, article or h1", () => {
    assertEquals(
      cleaned(
        '<div class="sidebar"><h1>Title</h1><div class="share">s</div></div>' +
          '<div id="nav-wrapper"><main>m</main></div><div class="menu"><article>a</article></div>' +
          '<div class="menu"><h2>gone</h2></div>',
      ),
      "<div><h1>Title</h1></div><div><main>m</main></div><div><article>a</article></div>",
    );
    // The page itself and its main content are never removed by a word.
    assertEquals(
      htmlToMarkdown('<body class="has-sidebar"><main class="menu-open"><p>x</p></main></body>'),
      "x\n",
    );
  });

  await t.step("attributes: only a[href], img[src,alt], td/th spans, ol[start], checkboxes", () => {
    assertEquals(
      cleaned(
        '<div style="x" class="c" id="i" data-x="1"><a href="/a" title="t" target="_blank">a</a>' +
          '<img src="/i.png" alt="i" width="3" loading="lazy"><ol start="3" type="a"><li value="2">x</li></ol>' +
          '<table><tbody><tr><td colspan="2" rowspan="1" align="left">c</td><th scope="col" colspan="1">h</th></tr></tbody></table></div>',
      ),
      '<div><a href="/a">a</a><img src="/i.png" alt="i"><ol start="3"><li>x</li></ol>' +
        '<table><tbody><tr><td colspan="2" rowspan="1">c</td><th colspan="1">h</th></tr></tbody></table></div>',
    );
  });

  await t.step("the language-* and lang-* words of a pre/code class, nothing else", () => {
    assertEquals(
      cleaned(
        '<pre class="highlight lang-go x"><code class="hljs language-go">x</code></pre><pre class="plain">y</pre>',
      ),
      '<pre class="lang-go"><code class="language-go">x</code></pre><pre>y</pre>',
    );
  });
});

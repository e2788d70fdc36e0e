/** Realistic pages for the golden tests: each page's HTML and the exact Markdown it becomes. */

/** A blog post: header with a site name and a menu, the article, share buttons, comments form. */
export const BLOG_POST = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Parsing HTML the hard way — k33g's blog</title>
  <link rel="stylesheet" href="/style.css">
  <script>window.dataLayer = [];</script>
  <style>body { font-family: serif; }</style>
</head>
<body>
  <a class="skip-link" href="#content">Skip to content</a>
  <header class="site-header">
    <p class="site-title"><a href="/">k33g's blog</a></p>
    <nav><ul><li><a href="/">Home</a></li><li><a href="/about">About</a></li></ul></nav>
  </header>
  <main id="content">
    <article>
      <h1>Parsing HTML the hard way</h1>
      <p class="meta">Posted on <time datetime="2024-05-01">1 May 2024</time> by <a href="/authors/k33g">k33g</a></p>
      <p>Browsers forgive a lot.   A missing <code>&lt;/p&gt;</code>, a stray <code>&lt;/div&gt;</code>:
      the <em>HTML5 parser</em> repairs it <strong>the same way everywhere</strong>.</p>
      <h2>Why not a regex?</h2>
      <p>Because of this:</p>
      <pre><code class="language-js">const re = /&lt;p&gt;(.*?)&lt;\\/p&gt;/g;
// breaks on &lt;p&gt;&lt;p&gt;nested
</code></pre>
      <blockquote><p>Every regex-based parser eventually becomes a bad HTML5 parser.</p></blockquote>
      <h2>What to do instead</h2>
      <ol>
        <li>Use a real parser.</li>
        <li>Walk the tree:
          <ul>
            <li>keep the text,</li>
            <li>drop the furniture.</li>
          </ul>
        </li>
        <li>Write the Markdown.</li>
      </ol>
      <figure>
        <img src="/img/tree.png" alt="A DOM tree">
        <figcaption>The tree after parsing.</figcaption>
      </figure>
      <p>Read the <a href="https://html.spec.whatwg.org/multipage/parsing.html">parsing spec</a>
      for the details.<br>Happy hacking!</p>
      <div class="share-buttons"><a href="https://twitter.com/share">Tweet</a> <button>Copy link</button></div>
      <footer class="post-footer">Tags: <a href="/tags/html">html</a>, <a href="/tags/parsing">parsing</a></footer>
    </article>
    <section class="comments">
      <h2>Comments</h2>
      <form><textarea name="c"></textarea><input type="text" name="name"><button>Send</button></form>
    </section>
  </main>
  <aside class="sidebar"><h3>Popular posts</h3><ul><li><a href="/p/1">One</a></li></ul></aside>
  <footer class="site-footer"><p>© 2024 k33g</p></footer>
  <script src="/analytics.js"></script>
</body>
</html>`;

/** The Markdown of {@linkcode BLOG_POST}, fetched from https://k33g.org/posts/parsing.html. */
export const BLOG_POST_MD = `[k33g's blog](https://k33g.org/)

# Parsing HTML the hard way

Posted on 1 May 2024 by [k33g](https://k33g.org/authors/k33g)

Browsers forgive a lot. A missing \`</p>\`, a stray \`</div>\`: the *HTML5 parser* repairs it **the same way everywhere**.

## Why not a regex?

Because of this:

\`\`\`js
const re = /<p>(.*?)<\\/p>/g;
// breaks on <p><p>nested
\`\`\`

> Every regex-based parser eventually becomes a bad HTML5 parser.

## What to do instead

1. Use a real parser.
2. Walk the tree:
   - keep the text,
   - drop the furniture.
3. Write the Markdown.

![A DOM tree](https://k33g.org/img/tree.png)

The tree after parsing.

Read the [parsing spec](https://html.spec.whatwg.org/multipage/parsing.html) for the details.\\
Happy hacking!

Tags: [html](https://k33g.org/tags/html), [parsing](https://k33g.org/tags/parsing)

## Comments
`;

/** A documentation page: a sidebar menu, breadcrumbs, a parameter table, notes, code tabs. */
export const DOCS_PAGE = `<!doctype html>
<html>
<head><title>fetch_content — mm docs</title><meta name="viewport" content="width=device-width"></head>
<body class="docs">
<div class="navbar"><a href="/">mm</a> <input type="search" placeholder="Search"></div>
<div class="layout">
  <div class="docs-sidebar" role="navigation"><ul><li><a href="/docs/">Intro</a></li><li><a href="/docs/tools/">Tools</a></li></ul></div>
  <div class="content">
    <ol class="breadcrumb"><li><a href="/docs/">Docs</a></li><li>Tools</li></ol>
    <h1 id="fetch">The <code>fetch_content</code> tool</h1>
    <p>Downloads a page and returns it as Markdown. Options are <em>optional</em>; the <code>url</code> is not.</p>
    <h2>Parameters</h2>
    <table>
      <caption>Fields of a call</caption>
      <thead><tr><th>Field</th><th>Type</th><th>Default</th></tr></thead>
      <tbody>
        <tr><td><code>url</code></td><td>string</td><td>—</td></tr>
        <tr><td><code>tables</code></td><td>string</td><td><code>html</code> | <code>flatten</code></td></tr>
        <tr><td><code>taskList</code></td><td>bool</td><td><code>false</code></td></tr>
      </tbody>
    </table>
    <h2>Example</h2>
    <div class="tabs">
      <ul class="nav nav-tabs"><li>Shell</li><li>JSON</li></ul>
      <div class="tab-pane"><pre class="lang-sh">mm -p "summarise https://example.com"</pre></div>
    </div>
    <div class="admonition note"><p class="admonition-title">Note</p><p>Pages above 5&nbsp;MiB are refused; see <a href="../limits/#size">limits</a>.</p></div>
    <h3>Checklist</h3>
    <ul class="checklist">
      <li><input type="checkbox" checked disabled> Declare <code>fetchContentTool: true</code></li>
      <li><input type="checkbox" disabled> Ask for a page</li>
    </ul>
    <p><span class="sr-only">Edit this page on</span><a href="https://github.com/k33g/mm/edit/main/docs/tools.md" class="edit">GitHub</a></p>
  </div>
</div>
<div class="cookie-consent" role="dialog"><p>We use cookies.</p><button>OK</button></div>
</body>
</html>`;

/** The Markdown of {@linkcode DOCS_PAGE} from https://mm.dev/docs/tools/fetch/, with `taskList`. */
export const DOCS_PAGE_MD = `# The \`fetch_content\` tool

Downloads a page and returns it as Markdown. Options are *optional*; the \`url\` is not.

## Parameters

Fields of a call

| Field | Type | Default |
| --- | --- | --- |
| \`url\` | string | — |
| \`tables\` | string | \`html\` \\| \`flatten\` |
| \`taskList\` | bool | \`false\` |

## Example

\`\`\`sh
mm -p "summarise https://example.com"
\`\`\`

Note

Pages above 5\u00a0MiB are refused; see [limits](https://mm.dev/docs/tools/limits/#size).

### Checklist

- [x] Declare \`fetchContentTool: true\`
- [ ] Ask for a page

[GitHub](https://github.com/k33g/mm/edit/main/docs/tools.md)
`;

/** A news page: cookie banner, navigation, ads, a newsletter box, related links, social links. */
export const NEWS_PAGE = `<html>
<head>
<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">
<title>Local library reopens | The Daily Byte</title>
</head>
<body>
<div id="cookie-banner" class="gdpr">
  <p>We and our 842 partners value your privacy. <a href="/privacy">Manage choices</a></p>
  <button>Accept all</button><button>Reject all</button>
</div>
<header role="banner"><a href="/" class="logo"><img src="/logo.svg" alt="The Daily Byte"></a></header>
<ul class="main-menu"><li><a href="/world">World</a></li><li><a href="/local">Local</a></li></ul>
<div class="ad ad-leaderboard"><img src="https://ads.example/banner.gif" alt="Buy now"></div>
<div class="story">
<h1>Local library reopens after two-year renovation</h1>
<p class="byline">By <b>Ana Lopez</b> | 3 March 2025</p>
<div class="social-share"><a href="https://facebook.com/sharer">Share</a></div>
<p>The town library reopened on Monday with a new reading room, 12,000 new books and a caf\u00e9.
<p>\u201cWe wanted a place where everyone feels welcome,\u201d said the head librarian.
<p>Opening hours:
<ul>
<li>Monday to Friday: 9:00\u201319:00
<li>Saturday: 10:00\u201316:00
</ul>
<div class="newsletter-signup"><h3>Get the morning briefing</h3><input type="email"><button>Subscribe</button></div>
<p>The renovation cost <strong>\u20ac4.2 million</strong>, 10% over budget.</p>
<div class="promo-box">Subscribe for \u20ac1!</div>
<h2>Related</h2>
<ul class="related"><li><a href="/local/museum">Museum extends hours</a></li></ul>
<div aria-hidden="true">\u2022 \u2022 \u2022</div>
<div hidden>Hidden teaser</div>
</div>
<footer><p>\u00a9 The Daily Byte</p><ul class="social"><li><a href="https://x.com/dailybyte">X</a></li></ul></footer>
</body>
</html>`;

/** The Markdown of {@linkcode NEWS_PAGE} from https://news.example/local/library. */
export const NEWS_PAGE_MD = `# Local library reopens after two-year renovation

By **Ana Lopez** | 3 March 2025

The town library reopened on Monday with a new reading room, 12,000 new books and a caf\u00e9.

\u201cWe wanted a place where everyone feels welcome,\u201d said the head librarian.

Opening hours:

- Monday to Friday: 9:00\u201319:00
- Saturday: 10:00\u201316:00

The renovation cost **\u20ac4.2 million**, 10% over budget.

## Related

- [Museum extends hours](https://news.example/local/museum)
`;

/** Encodes `text` in windows-1252 (every character of it must exist there). */
export function windows1252(text: string): Uint8Array<ArrayBuffer> {
  const table = new Map<string, number>();
  const decoder = new TextDecoder("windows-1252");
  for (let b = 0; b < 256; b++) table.set(decoder.decode(Uint8Array.of(b)), b);
  return Uint8Array.from(text, (c) => {
    const b = table.get(c);
    if (b === undefined) throw new Error(`${c} is not in windows-1252`);
    return b;
  });
}

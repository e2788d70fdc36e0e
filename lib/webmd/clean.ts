/**
 * What a page loses before conversion (tools.md, `fetch_content`, "Removed" and "Attributes"):
 * scripts, styles, navigation, banners, ads, hidden and screen-reader-only content, comments, and
 * every attribute the conversion does not read. Works in place on a parse5 tree.
 */

import type { DefaultTreeAdapterTypes as T } from "npm:parse5@8.1.1";

/** Elements removed with everything inside them. */
export const REMOVED_TAGS: ReadonlySet<string> = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "meta",
  "link",
  "base",
  "title",
  "svg",
  "canvas",
  "iframe",
  "object",
  "embed",
  "nav",
  "aside",
  "dialog",
  "button",
  "select",
  "textarea",
]);

/** ARIA roles whose elements are removed. */
export const REMOVED_ROLES: ReadonlySet<string> = new Set([
  "navigation",
  "banner",
  "complementary",
  "search",
  "contentinfo",
  "dialog",
]);

/**
 * Words of a class or an id that mark an element as furniture: the spec's list and a few
 * variants (plurals, `advertisement`, `sponsored`, `sharing`, `sidenav`...). Words are split at
 * anything but letters and digits and at a lower-to-upper case change (`cookie-banner`,
 * `shareButtons`), and two neighbouring words count joined too (`skip-link`, `side_bar`).
 */
export const REMOVED_WORDS: ReadonlySet<string> = new Set([
  "ad",
  "ads",
  "advert",
  "adverts",
  "advertisement",
  "advertisements",
  "advertising",
  "sponsor",
  "sponsors",
  "sponsored",
  "promo",
  "promos",
  "cookie",
  "cookies",
  "consent",
  "gdpr",
  "newsletter",
  "newsletters",
  "subscribe",
  "popup",
  "popups",
  "modal",
  "modals",
  "share",
  "sharing",
  "social",
  "breadcrumb",
  "breadcrumbs",
  "nav",
  "navbar",
  "navigation",
  "sidenav",
  "topnav",
  "subnav",
  "menu",
  "menus",
  "sidebar",
  "sidebars",
  "skiplink",
  "skiplinks",
]);

/** Whole classes of content meant for screen readers only. */
export const SCREEN_READER_CLASSES: ReadonlySet<string> = new Set([
  "sr-only",
  "visually-hidden",
  "screen-reader-text",
]);

/** Elements whose presence inside a class/id match keeps it. */
const KEEPERS = new Set(["main", "article", "h1"]);

/** Elements never removed by their class or id: the page itself and its main content. */
const NEVER_BY_WORD = new Set(["html", "body", "main", "article"]);

/** The attributes each element keeps; every other attribute goes. */
const KEPT_ATTRIBUTES: Record<string, readonly string[]> = {
  a: ["href"],
  img: ["src", "alt"],
  td: ["colspan", "rowspan"],
  th: ["colspan", "rowspan"],
  ol: ["start"],
  input: ["type", "checked"],
  pre: ["class"],
  code: ["class"],
};

/** Whether `node` is an element. */
export function isElement(node: T.Node): node is T.Element {
  return "tagName" in node;
}

/** The value of attribute `name` of `el`, or undefined. */
export function attr(el: T.Element, name: string): string | undefined {
  return el.attrs.find((a) => a.name === name)?.value;
}

/**
 * Removes, in place, every node of tools.md's "Removed" row under `root`, then every attribute
 * but `a[href]`, `img[src,alt]`, `td/th[colspan,rowspan]`, `ol[start]`, `input[type,checked]` and
 * the `language-*`/`lang-*` words of a `pre`/`code` class.
 */
export function cleanTree(root: T.ParentNode): void {
  const kept: T.ChildNode[] = [];
  for (const child of root.childNodes) {
    const goes = child.nodeName === "#comment" || child.nodeName === "#documentType" ||
      (isElement(child) && removed(child));
    if (goes) {
      child.parentNode = null;
      continue;
    }
    if (isElement(child)) {
      cleanTree(child);
      keepAttributes(child);
    }
    kept.push(child);
  }
  root.childNodes = kept;
}

/** Whether `el` goes, with its content. */
function removed(el: T.Element): boolean {
  const tag = el.tagName;
  if (REMOVED_TAGS.has(tag)) return true;
  if (tag === "input" && (attr(el, "type") ?? "").trim().toLowerCase() !== "checkbox") return true;
  if (tag === "footer" && !hasAncestor(el, ["article", "main"])) return true;
  if (el.attrs.length === 0) return false;
  const roles = tokens(attr(el, "role") ?? "");
  if (roles.some((r) => REMOVED_ROLES.has(r.toLowerCase()))) return true;
  if ((attr(el, "aria-hidden") ?? "").trim().toLowerCase() === "true") return true;
  if (attr(el, "hidden") !== undefined) return true;
  if (NEVER_BY_WORD.has(tag) || !markedByWord(el)) return false;
  return !hasDescendant(el, KEEPERS);
}

/** Whether the class or id of `el` names furniture or screen-reader-only content. */
export function markedByWord(el: T.Element): boolean {
  const classes = tokens(attr(el, "class") ?? "");
  if (classes.some((c) => SCREEN_READER_CLASSES.has(c.toLowerCase()))) return true;
  for (const name of [...classes, ...tokens(attr(el, "id") ?? "")]) {
    const parts = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase()
      .split(/[^a-z0-9]+/).filter((w) => w !== "");
    for (let i = 0; i < parts.length; i++) {
      if (REMOVED_WORDS.has(parts[i])) return true;
      if (i > 0 && REMOVED_WORDS.has(parts[i - 1] + parts[i])) return true;
    }
  }
  return false;
}

/** The white-space separated tokens of an attribute value. */
function tokens(value: string): string[] {
  return value.trim().split(/\s+/).filter((w) => w !== "");
}

function hasAncestor(el: T.Element, tags: string[]): boolean {
  for (let p = el.parentNode; p !== null && isElement(p); p = p.parentNode) {
    if (tags.includes(p.tagName)) return true;
  }
  return false;
}

function hasDescendant(el: T.ParentNode, tags: ReadonlySet<string>): boolean {
  return el.childNodes.some((c) => isElement(c) && (tags.has(c.tagName) || hasDescendant(c, tags)));
}

function keepAttributes(el: T.Element): void {
  const names = KEPT_ATTRIBUTES[el.tagName] ?? [];
  el.attrs = el.attrs.filter((a) => names.includes(a.name));
  if (el.tagName === "pre" || el.tagName === "code") {
    const cls = attr(el, "class");
    if (cls === undefined) return;
    const langs = cls.split(/\s+/).filter((w) => /^(language|lang)-./.test(w));
    el.attrs = el.attrs.filter((a) => a.name !== "class");
    if (langs.length) el.attrs.push({ name: "class", value: langs.join(" ") });
  }
}

/**
 * What a page loses before conversion (tools.md, `fetch_content`, "Removed" and "Attributes"):
 * scripts, styles, navigation, banners, ads, hidden and screen-reader-only content, comments, and
 * every attribute the conversion does not read. Works in place on a parse5 tree.
 *
 * Hidden includes what an inline style hides, text a reader never sees but a model would read (a
 * prompt injection's favourite place): `display: none` and `opacity: 0` remove the element with
 * everything in it; `visibility: hidden` (or `collapse`) and `font-size: 0` hide its text, and
 * that of its descendants, unless one of them says `visibility: visible` or a size again (both
 * are inherited in CSS, and `font-size: 0` is also the way to close the gaps between inline
 * blocks that set their own size). Stylesheets are not read: a class hidden by a stylesheet is
 * removed only when it is one of the screen-reader classes. `html` and `body` are never removed by
 * their style: a page hidden until its scripts run is still the page. Invisible characters (tag
 * characters, zero-width spaces, bidi controls: lib/invisible.ts) are removed from the text and
 * from the attributes kept.
 */

import type { DefaultTreeAdapterTypes as T } from "npm:parse5@8.1.1";
import { removeInvisible } from "../invisible.ts";

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
 * Removes, in place, every node of tools.md's "Removed" row under `root`, and what an inline
 * style hides (see the module; `around`: what `root` inherits), then every attribute
 * but `a[href]`, `img[src,alt]`, `td/th[colspan,rowspan]`, `ol[start]`, `input[type,checked]` and
 * the `language-*`/`lang-*` words of a `pre`/`code` class.
 */
export function cleanTree(root: T.ParentNode, around: Shown = SHOWN): void {
  const kept: T.ChildNode[] = [];
  for (const child of root.childNodes) {
    let shown = around;
    let goes = child.nodeName === "#comment" || child.nodeName === "#documentType";
    if (!goes && isElement(child)) {
      const style = inlineStyle(attr(child, "style") ?? "");
      // A page hidden until its scripts run (an anti-flicker snippet) is still the page.
      const page = child.tagName === "html" || child.tagName === "body";
      shown = page ? around : shownWithin(around, style);
      goes = removed(child) || (!page && styleRemoves(style)) ||
        (!shown.visible && child.tagName === "img");
    } else if (!goes && child.nodeName === "#text") {
      const text = child as T.TextNode;
      text.value = removeInvisible(text.value);
      goes = !around.visible || around.tiny || text.value === "";
    }
    if (goes) {
      child.parentNode = null;
      continue;
    }
    if (isElement(child)) {
      cleanTree(child, shown);
      keepAttributes(child);
    }
    kept.push(child);
  }
  root.childNodes = kept;
}

/** What the inherited styles of an element let be seen of its text. */
export interface Shown {
  /** Not under `visibility: hidden` or `collapse`. */
  visible: boolean;
  /** Under `font-size: 0`. */
  tiny: boolean;
}

const SHOWN: Shown = { visible: true, tiny: false };

/**
 * The declarations of an inline style, by lower-case property, the last one winning unless an
 * earlier one is `!important` and it is not; values lower-cased, `!important` and comments gone.
 */
export function inlineStyle(style: string): Map<string, string> {
  const out = new Map<string, { value: string; important: boolean }>();
  for (const declaration of style.replace(/\/\*[\s\S]*?\*\//g, " ").split(";")) {
    const colon = declaration.indexOf(":");
    if (colon < 0) continue;
    const name = declaration.slice(0, colon).trim().toLowerCase();
    let value = declaration.slice(colon + 1).trim().toLowerCase();
    const important = /!\s*important$/.test(value);
    if (important) value = value.replace(/!\s*important$/, "").trim();
    if (name === "" || value === "") continue;
    const earlier = out.get(name);
    if (earlier?.important && !important) continue;
    out.set(name, { value, important });
  }
  return new Map([...out].map(([name, d]) => [name, d.value]));
}

/** Whether a style removes its element with everything in it: `display: none`, `opacity: 0`. */
function styleRemoves(style: Map<string, string>): boolean {
  if (style.get("display") === "none") return true;
  const opacity = style.get("opacity");
  return opacity !== undefined && isZero(opacity);
}

/** What is seen inside an element of `style` within `around`. */
function shownWithin(around: Shown, style: Map<string, string>): Shown {
  const visibility = style.get("visibility");
  const size = style.get("font-size");
  let tiny = around.tiny;
  // A size relative to the parent's (2em, 150%, larger) stays 0 under 0.
  if (size !== undefined && size !== "inherit") {
    tiny = isZero(size) || (around.tiny && /^(?:[\d.]+(?:em|%)|larger|smaller)$/.test(size));
  }
  let visible = around.visible;
  if (visibility === "hidden" || visibility === "collapse") visible = false;
  else if (visibility === "visible") visible = true;
  return visible === around.visible && tiny === around.tiny ? around : { visible, tiny };
}

/** Whether a CSS length or number is zero (`0`, `0px`, `0.0em`, `0%`, `-0`). */
function isZero(value: string): boolean {
  const m = /^[+-]?(\d*\.?\d+)(?:[a-z]+|%)?$/.exec(value);
  return m !== null && Number(m[1]) === 0;
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
  el.attrs = el.attrs.filter((a) => names.includes(a.name))
    .map((a) => ({ ...a, value: removeInvisible(a.value) }));
  if (el.tagName === "pre" || el.tagName === "code") {
    const cls = attr(el, "class");
    if (cls === undefined) return;
    const langs = cls.split(/\s+/).filter((w) => /^(language|lang)-./.test(w));
    el.attrs = el.attrs.filter((a) => a.name !== "class");
    if (langs.length) el.attrs.push({ name: "class", value: langs.join(" ") });
  }
}

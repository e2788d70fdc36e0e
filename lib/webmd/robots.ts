/**
 * robots.txt as RFC 9309 reads it: groups of `user-agent` lines and their `allow`/`disallow`
 * rules, the most specific (longest) match winning, `allow` winning a tie, `*` for any run of
 * characters and a final `$` for the end of the path. Plus a per-origin cache of what a site's
 * robots.txt decided, kept 24 hours by a clock a test can move.
 */

/** One `allow` or `disallow` line of a group. */
export interface RobotsRule {
  allow: boolean;
  /** The path pattern as written (after trimming), never empty. */
  pattern: string;
}

/** One group: the product tokens of its `user-agent` lines (lower case) and its rules. */
export interface RobotsGroup {
  agents: string[];
  rules: RobotsRule[];
}

/** A parsed robots.txt. */
export interface RobotsTxt {
  groups: RobotsGroup[];
}

/**
 * Parses a robots.txt (RFC 9309 §2.1–2.2). Comments (`#`) and unknown records are ignored;
 * keys are case-insensitive; a `user-agent` line after a rule starts a new group; rules before
 * any `user-agent` line belong to no group; an empty `allow`/`disallow` value adds no rule.
 */
export function parseRobotsTxt(text: string): RobotsTxt {
  const groups: RobotsGroup[] = [];
  let current: RobotsGroup | undefined;
  let lastWasAgent = false;
  for (const raw of text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*$/, "").trim();
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "user-agent") {
      if (!lastWasAgent || current === undefined) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(productToken(value));
      lastWasAgent = true;
    } else if (key === "allow" || key === "disallow") {
      lastWasAgent = false;
      if (current === undefined || value === "") continue;
      current.rules.push({ allow: key === "allow", pattern: value });
    }
  }
  return { groups };
}

/**
 * The product token of a `user-agent` value, lower case: `*`, or the leading run of letters,
 * `_` and `-` (`Googlebot/2.1` is `googlebot`).
 */
function productToken(value: string): string {
  if (value.startsWith("*")) return "*";
  return (value.match(/^[A-Za-z_-]+/)?.[0] ?? value).toLowerCase();
}

/**
 * The rules that apply to `token` (case-insensitive): every group naming it, combined; else every
 * `*` group, combined; else none (everything allowed).
 */
export function rulesFor(robots: RobotsTxt, token: string): RobotsRule[] {
  const wanted = token.toLowerCase();
  const named = robots.groups.filter((g) => g.agents.includes(wanted));
  const groups = named.length ? named : robots.groups.filter((g) => g.agents.includes("*"));
  return groups.flatMap((g) => g.rules);
}

/**
 * Whether `path` (the URL's path and query, `/a/b?c=d`) may be fetched under `rules`: the rule
 * with the longest pattern that matches decides, `allow` winning a tie; no match allows.
 * `/robots.txt` itself is always allowed.
 */
export function isAllowed(rules: RobotsRule[], path: string): boolean {
  const target = canonical(path || "/");
  if (target === "/robots.txt") return true;
  let best: { length: number; allow: boolean } | undefined;
  for (const rule of rules) {
    const pattern = compilePattern(rule.pattern);
    if (!matches(pattern, target)) continue;
    if (
      best === undefined || pattern.length > best.length ||
      (pattern.length === best.length && rule.allow && !best.allow)
    ) {
      best = { length: pattern.length, allow: rule.allow };
    }
  }
  return best?.allow ?? true;
}

/** Whether `robotsTxt` lets `token` fetch `path`: parse, pick the group, match. */
export function robotsAllows(robotsTxt: string, token: string, path: string): boolean {
  return isAllowed(rulesFor(parseRobotsTxt(robotsTxt), token), path);
}

/** A pattern cut at its wildcards: literal pieces (canonical), and whether it ends with `$`. */
interface Pattern {
  pieces: string[];
  anchored: boolean;
  /** Octets of the canonical pattern, wildcards included: the match's specificity. */
  length: number;
}

function compilePattern(raw: string): Pattern {
  let text = raw;
  if (!text.startsWith("/") && !text.startsWith("*")) text = `/${text}`;
  const anchored = text.endsWith("$");
  if (anchored) text = text.slice(0, -1);
  const pieces = text.split("*").map(canonical);
  const length = pieces.reduce((n, p) => n + p.length, 0) + (pieces.length - 1) +
    (anchored ? 1 : 0);
  return { pieces, anchored, length };
}

/**
 * Whether `path` matches: the first piece at the start, each later piece after the previous one
 * (earliest position, which is enough for `*`), and with `$` the last piece at the very end.
 */
function matches(pattern: Pattern, path: string): boolean {
  const { pieces, anchored } = pattern;
  if (!path.startsWith(pieces[0])) return false;
  if (pieces.length === 1) return !anchored || path.length === pieces[0].length;
  let at = pieces[0].length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const found = path.indexOf(pieces[i], at);
    if (found < 0) return false;
    at = found + pieces[i].length;
  }
  const last = pieces[pieces.length - 1];
  if (anchored) return path.length - last.length >= at && path.endsWith(last);
  return path.indexOf(last, at) >= 0;
}

/**
 * One spelling for equal paths (RFC 9309 §2.2.2): percent-escapes decoded, then every octet
 * outside printable ASCII, and `%`, escaped again in upper case. So `/ツ`, `/%e3%83%84` and
 * `/%E3%83%84` are equal, and so are `/%62az` and `/baz`.
 */
function canonical(text: string): string {
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "%" && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      const code = text.codePointAt(i)!;
      if (code > 0xffff) i++;
      bytes.push(...encoder.encode(String.fromCodePoint(code)));
    }
  }
  let out = "";
  for (const b of bytes) {
    out += b <= 0x20 || b >= 0x7f || b === 0x25
      ? `%${b.toString(16).toUpperCase().padStart(2, "0")}`
      : String.fromCharCode(b);
  }
  return out;
}

/** What a site's robots.txt decided for mm. */
export type RobotsPolicy =
  /** A robots.txt was read: these are the rules for mm. */
  | { kind: "rules"; rules: RobotsRule[] }
  /** No robots.txt (a 4xx answer): everything is allowed. */
  | { kind: "allowAll"; status: number }
  /** A 5xx answer, or no answer: nothing is allowed. `reason` says which. */
  | { kind: "forbidAll"; reason: string };

/** Whether `policy` lets mm fetch `url`. */
export function policyAllows(policy: RobotsPolicy, url: URL): boolean {
  if (policy.kind === "allowAll") return true;
  if (policy.kind === "forbidAll") return url.pathname === "/robots.txt";
  return isAllowed(policy.rules, url.pathname + url.search);
}

/** How long a robots.txt answer is kept: 24 hours. */
export const ROBOTS_TTL = 24 * 60 * 60 * 1000;

/** Options of a {@linkcode RobotsCache}. */
export interface RobotsCacheOptions {
  /** Milliseconds since the epoch; `Date.now` by default. */
  now?: () => number;
  /** Milliseconds an entry lives; {@linkcode ROBOTS_TTL} by default. */
  ttl?: number;
}

/** Policies by origin (`https://example.com`), each kept for 24 hours. */
export class RobotsCache {
  #entries = new Map<string, { policy: RobotsPolicy; at: number }>();
  #now: () => number;
  #ttl: number;

  /** An empty cache. */
  constructor(options: RobotsCacheOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#ttl = options.ttl ?? ROBOTS_TTL;
  }

  /** The policy stored for `origin` less than 24 hours ago, if any. */
  get(origin: string): RobotsPolicy | undefined {
    const entry = this.#entries.get(origin);
    if (entry === undefined) return undefined;
    if (this.#now() - entry.at >= this.#ttl) {
      this.#entries.delete(origin);
      return undefined;
    }
    return entry.policy;
  }

  /** Stores `policy` for `origin`, from now. */
  set(origin: string, policy: RobotsPolicy): void {
    this.#entries.set(origin, { policy, at: this.#now() });
  }

  /** Forgets every origin. */
  clear(): void {
    this.#entries.clear();
  }
}

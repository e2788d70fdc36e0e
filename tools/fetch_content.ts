/** fetch_content: a web page as clean Markdown, returned or saved to a file (tools.md, `fetch_content`). */

import { errorReason } from "../lib/files.ts";
import { redactCutEnd } from "../lib/secrets.ts";
import { countLines } from "../lib/text.ts";
import type { Tool, ToolResult } from "../lib/tool.ts";
import { decodePage } from "../lib/webmd/encoding.ts";
import { FETCH_TIMEOUT, fetchPage, processRobotsCache } from "../lib/webmd/fetch.ts";
import type { RobotsCache } from "../lib/webmd/robots.ts";

/** Input of fetch_content, after coercion; a left-out optional field is undefined. */
export interface FetchContentInput {
  url: string;
  output?: string;
  baseUrl?: string;
  tables?: string;
  strikethrough?: boolean;
  taskList?: boolean;
}

/** The tool's description, as the model reads it. */
export const FETCH_CONTENT_DESCRIPTION =
  "Download a web page as Markdown (scripts, navigation and ads removed), or save it to a file.";

/** The fields' descriptions: short, since every character costs a small model context. */
export const URL_DESCRIPTION = "The page. https:// is added when missing. Only http and https.";
/** The `output` field's description. */
export const OUTPUT_DESCRIPTION =
  "File to save the Markdown to, relative to the working directory. When set, the Markdown is not returned.";
/** The `baseUrl` field's description. */
export const BASE_URL_DESCRIPTION =
  "Absolute URL for resolving relative links and images. Default: the page's final URL.";
/** The `tables` field's description. */
export const TABLES_DESCRIPTION =
  "Tables with rowspan/colspan or a nested table: html (default) keeps raw HTML, flatten makes a Markdown table.";
/** The `strikethrough` field's description. */
export const STRIKETHROUGH_DESCRIPTION = "Struck text as ~~text~~. Default false.";
/** The `taskList` field's description. */
export const TASK_LIST_DESCRIPTION = "List items with a checkbox as - [ ] / - [x]. Default false.";

/** The class of each error code (tools.md, the code table). */
export const ERROR_CLASSES: Record<1 | 2 | 3, string> = {
  1: "conversion",
  2: "input",
  3: "usage",
};

/** A failure: `[fetch_content: error 2 (input) — <reason>]`. */
export function errorText(code: 1 | 2 | 3, reason: string): string {
  return `[fetch_content: error ${code} (${ERROR_CLASSES[code]}) — ${reason}]`;
}

/** The result with `output`: the only line the model reads. */
export function savedText(lines: number, bytes: number, url: string, file: string): string {
  return `[fetch_content: saved ${lines} lines of Markdown (${bytes} bytes) from ${url} to ${file} — the content is not shown]`;
}

/** The result for a page left empty by the removal. */
export function noContentText(url: string): string {
  return `[fetch_content: ${url} has no text content once scripts, navigation and ads are removed — nothing saved]`;
}

/** The note that ends a Markdown longer than `maxOutput`. */
export function truncatedText(shown: number, total: number): string {
  return `[... Markdown truncated to maxOutput: the first ${shown} of ${total} characters are shown; give output to save the whole page to a file]`;
}

// Usage reasons (code 3).

/** The reason for an empty `url`. */
export const EMPTY_URL_TEXT =
  "url is empty: give the address of a web page, like https://example.com";

/** The reason for a `url` that does not parse. */
export function invalidUrlText(url: string): string {
  return `"${url}" is not a valid URL`;
}

/** The reason for a scheme other than http and https. */
export function schemeText(scheme: string): string {
  return `${scheme} URLs cannot be fetched: only http and https`;
}

/** The reason for an unknown `tables` value. */
export function tablesText(value: string): string {
  return `tables must be html or flatten, not "${value}"`;
}

/** The reason for a `baseUrl` that is not absolute. */
export function baseUrlText(value: string): string {
  return `baseUrl must be an absolute URL like https://example.com/docs/, not "${value}"`;
}

// Conversion reasons (code 1) not about the download.

/** The reason for a page whose bytes are not text. */
export function undecodableText(url: string, encoding: string): string {
  return `${url} could not be decoded as text (binary data in a page read as ${encoding})`;
}

/** The reason for a page nested too deeply to convert. */
export function tooDeepText(url: string): string {
  return `${url} is nested too deeply to convert`;
}

/** The reason when the output file cannot be written. */
export function writeErrorText(file: string, reason: string): string {
  return `cannot write ${file}: ${reason}`;
}

/**
 * The URL a model meant: a missing scheme means `https://` (`k33g.org`, `//k33g.org`,
 * `localhost:8080/x`), a scheme typed without its colon is repaired (`https//k33g.org`).
 */
export function repairUrl(raw: string): string {
  const url = raw.trim();
  const colonless = url.match(/^(https?)\/\/+(.*)$/is);
  if (colonless) return `${colonless[1].toLowerCase()}://${colonless[2]}`;
  if (url.startsWith("//")) return `https:${url}`;
  const scheme = url.match(/^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s);
  // `localhost:8080` and `example.com:443/x` are a host and a port, not a scheme.
  if (scheme && !/^\d+(\/|\?|#|$)/.test(scheme[2])) return url;
  return `https://${url}`;
}

/** Options of {@linkcode createFetchContent}: what a test changes. */
export interface FetchContentOptions {
  /** Where robots.txt answers are kept; the process-wide cache by default. */
  robots?: RobotsCache;
  /** Milliseconds for the whole fetch; 30 s by default. */
  timeout?: number;
  /** Largest page in bytes; 5 MiB by default. */
  maxBytes?: number;
}

/** The fetch_content tool, with its robots.txt cache and limits. */
export function createFetchContent(options: FetchContentOptions = {}): Tool<FetchContentInput> {
  return {
    name: "fetch_content",
    kind: "fetch",
    emoji: "🌐",
    // Every fetch asks when `yolo: false`; "always" allows its host for the session.
    asks: true,
    touches: (input) => input.output?.trim() ? [input.output.trim()] : [],
    declared: (config) => config.fetchContentTool,
    description: FETCH_CONTENT_DESCRIPTION,
    parameters: {
      url: { type: "string", description: URL_DESCRIPTION, aliases: ["link", "href", "uri"] },
      output: {
        type: "string",
        description: OUTPUT_DESCRIPTION,
        optional: true,
        aliases: ["file", "path", "output_file"],
        path: true,
      },
      baseUrl: {
        type: "string",
        description: BASE_URL_DESCRIPTION,
        optional: true,
        aliases: ["base_url", "base"],
      },
      tables: { type: "string", description: TABLES_DESCRIPTION, optional: true },
      strikethrough: { type: "boolean", description: STRIKETHROUGH_DESCRIPTION, optional: true },
      taskList: {
        type: "boolean",
        description: TASK_LIST_DESCRIPTION,
        optional: true,
        aliases: ["task_list", "tasklist"],
      },
    },
    summary: (input) => {
      const url = repairUrl(input.url ?? "");
      const output = input.output?.trim();
      return output ? `${url} → ${output}` : url;
    },
    async run(input, ctx): Promise<ToolResult> {
      const failure = (code: 1 | 2 | 3, reason: string, locations?: string[]): ToolResult => ({
        output: errorText(code, reason),
        failed: true,
        ...(locations ? { locations } : {}),
      });
      const raw = (input.url ?? "").trim();
      if (raw === "") return failure(3, EMPTY_URL_TEXT);
      const shown = repairUrl(raw);
      let url: URL;
      try {
        url = new URL(shown);
      } catch {
        return failure(3, invalidUrlText(raw));
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        return failure(3, schemeText(url.protocol));
      }
      if (url.hostname === "") return failure(3, invalidUrlText(raw));
      const tables = (input.tables ?? "").trim().toLowerCase() || "html";
      if (tables !== "html" && tables !== "flatten") return failure(3, tablesText(input.tables!));
      const base = (input.baseUrl ?? "").trim();
      if (base !== "" && !isAbsolute(base)) return failure(3, baseUrlText(input.baseUrl!));
      const output = (input.output ?? "").trim();
      const locations = output ? [ctx.fs.resolve(output)] : undefined;

      const page = await fetchPage(url, {
        http: ctx.http,
        robots: options.robots ?? processRobotsCache,
        signal: ctx.signal,
        timeout: options.timeout ?? FETCH_TIMEOUT,
        maxBytes: options.maxBytes,
      });
      if (!page.ok) return failure(page.code, page.reason, locations);
      const decoded = decodePage(page.bytes, page.contentType);
      if (decoded.text.includes("\0")) {
        return failure(1, undecodableText(page.url, decoded.encoding), locations);
      }
      let markdown: string;
      // The HTML parser loads on first use: most runs never fetch a page.
      const { htmlToMarkdown } = await import("../lib/webmd/markdown.ts");
      try {
        markdown = htmlToMarkdown(decoded.text, {
          baseUrl: base || page.url,
          tables,
          strikethrough: input.strikethrough ?? false,
          taskList: input.taskList ?? false,
        });
      } catch (err) {
        if (err instanceof RangeError) return failure(1, tooDeepText(page.url), locations);
        throw err;
      }
      if (markdown === "") return { output: noContentText(shown), locations };
      if (!output) return { output: truncateMarkdown(markdown, ctx.config.maxOutput) };
      const data = new TextEncoder().encode(markdown);
      try {
        await ctx.fs.writeAtomic(output, data);
      } catch (err) {
        return failure(1, writeErrorText(output, errorReason(err)), locations);
      }
      return {
        output: savedText(countLines(markdown), data.length, shown, output),
        locations,
      };
    },
  };
}

/** fetch_content with the process-wide robots.txt cache and the spec's limits. */
export const fetchContent: Tool<FetchContentInput> = createFetchContent();

/** Whether `url` is an absolute URL (it has a scheme). */
function isAbsolute(url: string): boolean {
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Markdown within `max` characters: whole lines from the start, then the note of
 * {@linkcode truncatedText}, and one final newline.
 */
export function truncateMarkdown(markdown: string, max: number): string {
  if (markdown.length <= max) return markdown;
  const total = markdown.length;
  let room = Math.max(0, max - truncatedText(total, total).length - 2);
  const cut = markdown.lastIndexOf("\n", room);
  room = cut > 0 ? cut : room;
  const head = redactCutEnd(markdown.slice(0, room)).trimEnd();
  return head === ""
    ? `${truncatedText(0, total)}\n`
    : `${head}\n\n${truncatedText(head.length, total)}\n`;
}

/**
 * A server's `tools/list` answer read leniently, tool by tool: the SDK's `listTools()` rejects
 * the whole server when one tool's schema lacks `type: "object"`, so mm reads the raw pages, repairs
 * what can be repaired (a schema missing or without its type) and drops what cannot (no name, a
 * schema that is not an object's), saying which.
 */

import type { McpToolInfo } from "../tool.ts";
import {
  type Changes,
  inlineRefs,
  sanitizeSchema,
  type Schema,
  shortDescription,
} from "./sanitize.ts";

/** One listed tool: what its tools are built from, and what sanitising changed. */
export interface ListedTool extends McpToolInfo {
  /** The schema as the server sent it. */
  raw: unknown;
  /** What sanitising changed in the schema (and the description). */
  changes: Changes;
}

/** A listing: the tools kept, and one note per tool repaired or dropped. */
export interface Listing {
  tools: ListedTool[];
  notes: string[];
}

function isObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads the `tools` of every page of a `tools/list` answer. */
export function readListing(entries: unknown[]): Listing {
  const tools: ListedTool[] = [];
  const notes: string[] = [];
  const names = new Set<string>();
  entries.forEach((entry, i) => {
    if (!isObject(entry) || typeof entry.name !== "string" || !entry.name.trim()) {
      notes.push(`tool #${i + 1} dropped: it has no name`);
      return;
    }
    const name = entry.name;
    if (names.has(name)) {
      notes.push(`${name} dropped: listed twice`);
      return;
    }
    let schema = entry.inputSchema;
    if (!isObject(schema)) {
      notes.push(`${name}: no input schema — taken as one without parameters`);
      schema = { type: "object", properties: {} };
    } else if (schema.type === undefined) {
      notes.push(`${name}: input schema without "type": "object" — repaired`);
      schema = { ...schema, type: "object" };
    } else if (schema.type !== "object") {
      notes.push(
        `${name} dropped: its input schema is not an object's (${JSON.stringify(schema.type)})`,
      );
      return;
    }
    names.add(name);
    const changes: Changes = new Map();
    const text = typeof entry.description === "string" && entry.description.trim()
      ? entry.description
      : typeof entry.title === "string"
      ? entry.title
      : "";
    const description = shortDescription(text);
    if (description !== text.replace(/\s+/g, " ").trim()) changes.set("description shortened", 1);
    const annotations = isObject(entry.annotations) ? entry.annotations : {};
    tools.push({
      name,
      description,
      inputSchema: inlineRefs(schema as Schema),
      schema: sanitizeSchema(schema as Schema, changes),
      readOnly: annotations.readOnlyHint === true,
      raw: entry.inputSchema,
      changes,
    });
  });
  return { tools, notes };
}

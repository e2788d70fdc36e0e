/**
 * An MCP tool's schema and description as the model gets them (docs/mcp.md, "What the model
 * sees"): the schema made acceptable to every provider, strictest for llama.cpp, Ollama and
 * Docker Model Runner — whose grammars fail on `pattern`, `format` or a huge `maxLength`, and whose
 * templates want a typed object — and the description cut to its first sentence or two.
 *
 * What is kept: names, types, `enum`, `required`, descriptions, `properties`, `items`, `anyOf`
 * (null branches dropped), `minimum`/`maximum`, and `min`/`maxLength`, `min`/`maxItems` up to
 * {@linkcode SMALL_LIMIT}. `$ref`s are inlined (a recursive one becomes a plain object), `allOf`
 * merged, `const` becomes a one-value `enum`, a missing type is inferred, and everything else is
 * dropped (`$schema`, `title`, `examples`, `format`, `pattern`, `default`, `additionalProperties`…).
 * Arguments are still checked against the server's own schema (tools/mcp/check.ts).
 */

/** A JSON Schema, as plain data. */
export type Schema = Record<string, unknown>;

/** Length and item limits above this are dropped (they blow up a grammar). */
export const SMALL_LIMIT = 100;

/** Nesting below this depth becomes a plain value of its type. */
const MAX_DEPTH = 10;

/** Characters a cut description keeps at most. */
export const DESCRIPTION_MAX = 300;

/** What sanitising changed, by kind (`format dropped` → 2): what `mm doctor` reports. */
export type Changes = Map<string, number>;

function isObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function note(changes: Changes, what: string): void {
  changes.set(what, (changes.get(what) ?? 0) + 1);
}

/** The JSON types a schema keyword may name. */
const TYPES = ["string", "number", "integer", "boolean", "array", "object", "null"];

/**
 * `schema` with every local `$ref` (`#/$defs/X`, `#/definitions/X`, `#`) replaced by what it
 * points to; a reference met again inside itself, or one that points nowhere, becomes `{}`.
 */
export function inlineRefs(schema: Schema, changes: Changes = new Map()): Schema {
  const walk = (node: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, seen));
    if (!isObject(node)) return node;
    const ref = node.$ref;
    if (typeof ref === "string") {
      const { $ref: _, ...rest } = node;
      const target = seen.includes(ref) ? undefined : resolvePointer(schema, ref);
      note(changes, target === undefined ? "$ref unresolved" : "$ref inlined");
      const inlined = target === undefined ? {} : walk(target, [...seen, ref]) as Schema;
      return { ...inlined, ...walk(rest, seen) as Schema };
    }
    const out: Schema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "$defs" || key === "definitions") continue;
      // `properties` maps names to schemas: a property may be called `$ref` or `$defs`.
      out[key] = key === "properties" && isObject(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, seen)]))
        : walk(value, seen);
    }
    return out;
  };
  return walk(schema, []) as Schema;
}

/** What a local JSON pointer (`#/$defs/Item`) names in `root`, or undefined. */
function resolvePointer(root: Schema, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").filter((p) => p !== "")) {
    const part = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isObject(node) || !(part in node)) return undefined;
    node = node[part];
  }
  return node;
}

/**
 * A tool's input schema made portable (see the module comment): always `type: "object"` with
 * `properties` at the top. `changes` collects what was changed, for `mm doctor`.
 */
export function sanitizeSchema(input: Schema, changes: Changes = new Map()): Schema {
  const inlined = inlineRefs(input, changes);
  const top = sanitizeNode(mergeBranches(mergeAllOf(inlined, changes), changes), changes, 0);
  if (top.type !== "object") note(changes, "type: object set at the top");
  const { type: _, properties, required, ...rest } = top;
  const out: Schema = { type: "object", properties: isObject(properties) ? properties : {} };
  if (Array.isArray(required) && required.length) out.required = required;
  return { ...out, ...rest };
}

/** One schema node, sanitised. */
function sanitizeNode(node: unknown, changes: Changes, depth: number): Schema {
  if (node === true || node === undefined) return { type: "string" };
  if (!isObject(node)) return { type: "string" };
  let n = mergeAllOf(node, changes);
  n = dropNullBranches(n, changes);
  const out: Schema = {};
  const type = pickType(n, changes);
  if (type) out.type = type;
  if (typeof n.description === "string" && n.description.trim()) {
    out.description = shortDescription(n.description);
    if (out.description !== n.description.trim()) note(changes, "description shortened");
  }
  if (Array.isArray(n.enum) && n.enum.length) out.enum = n.enum;
  else if ("const" in n) {
    out.enum = [n.const];
    note(changes, "const made an enum");
  }
  if (type === "object" || (!type && isObject(n.properties))) {
    const props: Schema = {};
    if (isObject(n.properties)) {
      for (const [name, p] of Object.entries(n.properties)) {
        props[name] = depth >= MAX_DEPTH ? plain(p) : sanitizeNode(p, changes, depth + 1);
      }
    }
    out.properties = props;
    const required: string[] = [];
    for (const r of Array.isArray(n.required) ? n.required : []) {
      if (typeof r !== "string") continue;
      // The model cannot send what it is not shown: tools/mcp/check.ts does not ask for it either.
      if (r in props) required.push(r);
      else note(changes, `required ${JSON.stringify(r)} dropped (no such property)`);
    }
    if (required.length) out.required = required;
  }
  if (type === "array") {
    const items = Array.isArray(n.items) ? n.items[0] : n.items;
    if (Array.isArray(n.items)) note(changes, "tuple items made one item");
    out.items = depth >= MAX_DEPTH ? plain(items) : sanitizeNode(items, changes, depth + 1);
  }
  if (!type && Array.isArray(n.anyOf ?? n.oneOf)) {
    out.anyOf = ((n.anyOf ?? n.oneOf) as unknown[]).map((b) => sanitizeNode(b, changes, depth + 1));
    if (n.oneOf) note(changes, "oneOf made anyOf");
  }
  for (const key of ["minimum", "maximum"]) {
    if (typeof n[key] === "number" && (type === "number" || type === "integer")) out[key] = n[key];
  }
  for (const key of ["minLength", "maxLength", "minItems", "maxItems"]) {
    const v = n[key];
    if (typeof v !== "number") continue;
    if (v <= SMALL_LIMIT) out[key] = v;
    else note(changes, `large ${key} dropped`);
  }
  for (const key of Object.keys(n)) {
    if (KEPT.has(key) || key === "type") continue;
    note(changes, `${key} dropped`);
  }
  return out;
}

/** The keywords the sanitiser reads (what it does not read is dropped). */
const KEPT = new Set([
  "description",
  "enum",
  "const",
  "properties",
  "required",
  "items",
  "anyOf",
  "oneOf",
  "allOf",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
]);

/** A value of its type only: for nesting too deep to declare. */
function plain(node: unknown): Schema {
  const type = isObject(node) ? pickType(node, new Map()) : undefined;
  return { type: type ?? "string" };
}

/** `allOf` merged into the node: properties and `required` joined, the first type kept. */
function mergeAllOf(node: Schema, changes: Changes): Schema {
  if (!Array.isArray(node.allOf)) return node;
  note(changes, "allOf merged");
  const { allOf, ...rest } = node;
  const merged: Schema = { ...rest };
  const props: Schema = isObject(rest.properties) ? { ...rest.properties } : {};
  const required = new Set(Array.isArray(rest.required) ? rest.required : []);
  for (const part of allOf as unknown[]) {
    if (!isObject(part)) continue;
    const p = mergeAllOf(part, changes);
    if (isObject(p.properties)) Object.assign(props, p.properties);
    if (Array.isArray(p.required)) { for (const r of p.required) required.add(r); }
    for (const [k, v] of Object.entries(p)) {
      if (k !== "properties" && k !== "required" && !(k in merged)) merged[k] = v;
    }
  }
  if (Object.keys(props).length) merged.properties = props;
  if (required.size) merged.required = [...required];
  return merged;
}

/** Whether a branch of `anyOf`/`oneOf` describes an object: `type: object`, or untyped with fields. */
export function isObjectBranch(branch: unknown): branch is Schema {
  if (!isObject(branch)) return false;
  if (branch.type !== undefined) return branch.type === "object";
  return isObject(branch.properties) || Array.isArray(branch.required);
}

/**
 * A top level of `anyOf`/`oneOf` objects (one set of arguments or another) as one object: the
 * properties of every branch, optional unless every branch requires them, each with its type when
 * the branches agree on it (an `anyOf` of theirs when they do not), the node's own properties
 * first. A provider takes no `anyOf` at the top of a tool's parameters; the arguments are still
 * checked against the branch they fit (tools/mcp/check.ts).
 */
function mergeBranches(node: Schema, changes: Changes): Schema {
  const key = Array.isArray(node.anyOf) ? "anyOf" : Array.isArray(node.oneOf) ? "oneOf" : undefined;
  if (!key || (node.type !== undefined && node.type !== "object")) return node;
  const branches = (node[key] as unknown[]).map((b) => isObject(b) ? mergeAllOf(b, changes) : b)
    .filter((b) => !(isObject(b) && b.type === "null"));
  if (!branches.length || !branches.every(isObjectBranch)) return node;
  const { [key]: _, ...rest } = node;
  const own = isObject(rest.properties) ? rest.properties : {};
  const seen = new Map<string, unknown[]>();
  for (const branch of branches) {
    for (const [name, p] of Object.entries(isObject(branch.properties) ? branch.properties : {})) {
      if (!(name in own)) seen.set(name, [...(seen.get(name) ?? []), p]);
    }
  }
  const props: Schema = { ...own };
  for (const [name, schemas] of seen) {
    const kinds = [...new Set(schemas.map((p) => JSON.stringify(isObject(p) ? p.type : null)))];
    props[name] = kinds.length === 1 ? schemas[0] : { anyOf: uniqueSchemas(schemas) };
  }
  const everyOne = (name: string) =>
    branches.every((b) => Array.isArray(b.required) && b.required.includes(name));
  const required = [
    ...(Array.isArray(rest.required) ? rest.required : []),
    ...[...new Set(branches.flatMap((b) => Array.isArray(b.required) ? b.required : []))]
      .filter((name) => typeof name === "string" && everyOne(name)),
  ];
  note(changes, `${key} of ${branches.length} objects merged, their properties optional`);
  return {
    ...rest,
    type: "object",
    properties: props,
    ...(required.length ? { required: [...new Set(required)] } : {}),
  };
}

/** `schemas` without repeats (compared as JSON). */
function uniqueSchemas(schemas: unknown[]): unknown[] {
  const seen = new Set<string>();
  return schemas.filter((s) => {
    const json = JSON.stringify(s);
    if (seen.has(json)) return false;
    seen.add(json);
    return true;
  });
}

/**
 * `anyOf`/`oneOf` without their `{type: "null"}` branches; one branch left is merged into the
 * node (a pydantic `Optional[str]` is a string).
 */
function dropNullBranches(node: Schema, changes: Changes): Schema {
  const key = Array.isArray(node.anyOf) ? "anyOf" : Array.isArray(node.oneOf) ? "oneOf" : undefined;
  if (!key) return node;
  const branches = (node[key] as unknown[]).filter((b) => !(isObject(b) && b.type === "null"));
  if (branches.length === (node[key] as unknown[]).length && branches.length !== 1) return node;
  const { [key]: _, ...rest } = node;
  if (branches.length === 1 && isObject(branches[0])) {
    note(changes, `${key} of one type merged`);
    return { ...branches[0], ...rest };
  }
  return { ...rest, [key]: branches };
}

/** The node's one type: its own (the first of a list that is not null), else inferred. */
function pickType(n: Schema, changes: Changes): string | undefined {
  if (typeof n.type === "string" && TYPES.includes(n.type) && n.type !== "null") return n.type;
  if (Array.isArray(n.type)) {
    const first = n.type.find((t) => typeof t === "string" && t !== "null" && TYPES.includes(t));
    if (first) {
      note(changes, "type list made one type");
      return first as string;
    }
  }
  if (Array.isArray(n.anyOf ?? n.oneOf)) return undefined;
  const inferred = inferType(n);
  note(changes, "missing type inferred");
  return inferred;
}

/** The type a node without one most likely has. */
function inferType(n: Schema): string {
  if (isObject(n.properties) || isObject(n.additionalProperties)) return "object";
  if ("items" in n) return "array";
  const values = Array.isArray(n.enum) ? n.enum : "const" in n ? [n.const] : [];
  if (values.length && values.every((v) => typeof v === "number")) {
    return values.every(Number.isInteger) ? "integer" : "number";
  }
  if (values.length && values.every((v) => typeof v === "boolean")) return "boolean";
  return "string";
}

/**
 * A description cut to its first sentence, or its first two when the first is short (under 60
 * characters), and to {@linkcode DESCRIPTION_MAX} characters; white space runs become one space.
 */
export function shortDescription(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const ends = [...flat.matchAll(/[.!?](?=\s+[A-Z0-9(`"'])|[.!?]$/g)].map((m) => m.index! + 1);
  let cut = flat;
  if (ends.length) {
    const first = ends[0];
    cut = flat.slice(0, first < 60 && ends.length > 1 ? ends[1] : first);
  }
  if (cut.length > DESCRIPTION_MAX) cut = `${cut.slice(0, DESCRIPTION_MAX - 1).trimEnd()}…`;
  return cut;
}

/** The changes as `mm doctor` lists them: `format dropped ×2, $ref inlined`. */
export function changesText(changes: Changes): string {
  return [...changes].map(([what, n]) => n > 1 ? `${what} ×${n}` : what).join(", ");
}

/**
 * A model's arguments checked against an MCP tool's own schema (not the sanitised one it was
 * shown), with mm's forgiveness: `"3"` for 3, `"true"` for true, a number for a string, a JSON
 * text for a list or an object, one value for a list of one, a `null` for a left-out optional
 * field, an enum value in the wrong case. What cannot be forgiven is a fault in words the model
 * can act on. Only shapes are checked (types, `required`, `enum`, closed objects): lengths,
 * patterns and formats are the server's to judge — it stays the final judge.
 */

/** A JSON Schema, as plain data. */
type Schema = Record<string, unknown>;

/** The arguments as the server gets them, or every fault found. */
export type Checked = { ok: true; value: Record<string, unknown> } | {
  ok: false;
  faults: string[];
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Checks `args` against `schema` (an object's schema, `$ref`s inlined). */
export function checkArguments(schema: Schema, args: Record<string, unknown>): Checked {
  const faults: string[] = [];
  const value = checkValue(schema, args, "", faults);
  return faults.length
    ? { ok: false, faults }
    : { ok: true, value: value as Record<string, unknown> };
}

/** `value` fitted to `schema` at `path`; faults are pushed to `faults`. */
function checkValue(schema: unknown, value: unknown, path: string, faults: string[]): unknown {
  if (!isObject(schema)) return value;
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf) value = checkValue(part, value, path, faults);
  }
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches) && branches.length) {
    const rest: Schema = { ...schema, anyOf: undefined, oneOf: undefined };
    const objects = isObject(value) ? branches.filter(isObjectBranch) : [];
    if (objects.length && (rest.type === undefined || rest.type === "object")) {
      return checkBranches(rest, objects, value, path, faults);
    }
    for (const branch of branches) {
      const tried: string[] = [];
      const fitted = checkValue(branch, value, path, tried);
      if (!tried.length) return checkValue(rest, fitted, path, faults);
    }
    faults.push(`${label(path)}${show(value)} is not ${kindsOf(branches)}`);
    return value;
  }
  const types = typesOf(schema);
  if (types.length) {
    const fitted = coerce(types, value, schema);
    if (fitted === undefined) {
      faults.push(`${label(path)}${show(value)} is not ${types.map(article).join(" or ")}`);
      return value;
    }
    value = fitted.value;
  }
  if (Array.isArray(schema.enum) && schema.enum.length) {
    value = inEnum(schema.enum, value, path, faults);
  } else if ("const" in schema) value = inEnum([schema.const], value, path, faults);
  if (isObject(value) && (types.includes("object") || isObject(schema.properties))) {
    return checkObject(schema, value, path, faults);
  }
  if (Array.isArray(value) && isObject(schema.items)) {
    return value.map((item, i) => checkValue(schema.items, item, `${path}[${i}]`, faults));
  }
  return value;
}

/** Whether a branch of `anyOf`/`oneOf` is an object's: `type: object`, or untyped with fields. */
function isObjectBranch(branch: unknown): branch is Schema {
  if (!isObject(branch)) return false;
  return branch.type === undefined
    ? isObject(branch.properties) || Array.isArray(branch.required)
    : branch.type === "object";
}

/**
 * An object against branches of objects (one set of arguments or another, which the model was
 * shown merged: lib/mcp/sanitize.ts): each branch with the fields around it (`outer`), the first
 * that fits taken; when none does, the faults of those that came closest — knowing the most of
 * the fields sent, then with the fewest faults — as alternatives (`a is missing, or b is missing`).
 */
function checkBranches(
  outer: Schema,
  branches: Schema[],
  value: unknown,
  path: string,
  faults: string[],
): unknown {
  const tries: { faults: string[]; known: number }[] = [];
  const sent = Object.keys(asObject(value));
  for (const branch of branches) {
    const properties = { ...asObject(outer.properties), ...asObject(branch.properties) };
    const required = [...asList(outer.required), ...asList(branch.required)];
    const merged: Schema = { ...outer, ...branch, properties, required };
    const tried: string[] = [];
    const fitted = checkValue(merged, value, path, tried);
    if (!tried.length) return fitted;
    tries.push({ faults: tried, known: sent.filter((k) => k in properties).length });
  }
  const most = Math.max(...tries.map((t) => t.known));
  const knowing = tries.filter((t) => t.known === most);
  const fewest = Math.min(...knowing.map((t) => t.faults.length));
  const closest = knowing.filter((t) => t.faults.length === fewest).map((t) => t.faults.join("; "));
  faults.push([...new Set(closest)].join(", or "));
  return value;
}

function asObject(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * An object's fields: each checked, the required ones present, unknown ones refused when closed.
 * A required name with no property is not asked for: the model was never shown it (the sanitised
 * schema drops it, and `mm doctor` says so).
 */
function checkObject(
  schema: Schema,
  value: Record<string, unknown>,
  path: string,
  faults: string[],
): Record<string, unknown> {
  const props = asObject(schema.properties);
  const required = asList(schema.required).filter((k): k is string =>
    typeof k === "string" && k in props
  );
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const p = props[key];
    if (p === undefined) {
      if (schema.additionalProperties === false) {
        faults.push(`"${key}" is not a parameter${path ? ` of ${path}` : " of this tool"}`);
      } else {out[key] = isObject(schema.additionalProperties)
          ? checkValue(schema.additionalProperties, v, join(path, key), faults)
          : v;}
      continue;
    }
    // A null for a field that is left out, when null is not one of its values.
    if (v === null && !required.includes(key) && !typesOf(p).includes("null")) continue;
    out[key] = checkValue(p, v, join(path, key), faults);
  }
  for (const key of required) {
    if (!(key in out) && !faults.some((f) => f.startsWith(`${join(path, key)}:`))) {
      faults.push(`${join(path, key)} is missing`);
    }
  }
  return out;
}

/** The JSON types a schema allows (none: any). */
function typesOf(schema: unknown): string[] {
  if (!isObject(schema)) return [];
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t) => typeof t === "string");
  return [];
}

/** `value` as one of `types`, forgiven where the near miss is clear; undefined when it cannot be. */
function coerce(types: string[], value: unknown, schema: Schema): { value: unknown } | undefined {
  for (const type of types) if (exact(type, value)) return { value };
  for (const type of types) {
    const fitted = forgive(type, value, schema);
    if (fitted !== undefined) return fitted;
  }
  return undefined;
}

function exact(type: string, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    default:
      return true;
  }
}

const NUMBER = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

function forgive(type: string, value: unknown, schema: Schema): { value: unknown } | undefined {
  switch (type) {
    case "string":
      return typeof value === "number" || typeof value === "boolean"
        ? { value: String(value) }
        : undefined;
    case "number":
    case "integer": {
      if (typeof value !== "string" || !NUMBER.test(value)) return undefined;
      const n = Number(value);
      return type === "integer" && !Number.isInteger(n) ? undefined : { value: n };
    }
    case "boolean":
      if (typeof value === "string" && /^(true|false)$/i.test(value.trim())) {
        return { value: value.trim().toLowerCase() === "true" };
      }
      return undefined;
    case "array": {
      const parsed = typeof value === "string" ? parseJson(value) : undefined;
      if (Array.isArray(parsed)) return { value: parsed };
      const itemTypes = typesOf(schema.items);
      // One value where a list of such values is wanted.
      if (
        value !== null && !isObject(value) && (!itemTypes.length || coerce(itemTypes, value, {}))
      ) {
        return { value: [value] };
      }
      return undefined;
    }
    case "object": {
      const parsed = typeof value === "string" ? parseJson(value) : undefined;
      return isObject(parsed) ? { value: parsed } : undefined;
    }
    default:
      return undefined;
  }
}

/** `value` when it is one of `values` (a string matched without case, given its enum spelling). */
function inEnum(values: unknown[], value: unknown, path: string, faults: string[]): unknown {
  const json = JSON.stringify(value);
  if (values.some((v) => JSON.stringify(v) === json)) return value;
  if (typeof value === "string") {
    const alike = values.filter((v) =>
      typeof v === "string" && v.toLowerCase() === value.toLowerCase()
    );
    if (alike.length === 1) return alike[0];
    const asNumber = values.find((v) => typeof v === "number" && String(v) === value.trim());
    if (asNumber !== undefined) return asNumber;
  }
  faults.push(
    `${label(path)}${show(value)} is not one of ${values.map((v) => show(v)).join(", ")}`,
  );
  return value;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The types a list of branches allows, in words: `a string or an integer`. */
function kindsOf(branches: unknown[]): string {
  const kinds = [...new Set(branches.flatMap((b) => typesOf(b)))].map(article);
  return kinds.length ? kinds.join(" or ") : "one of the values the tool takes";
}

function article(type: string): string {
  if (type === "null") return "null";
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function label(path: string): string {
  return path ? `${path}: ` : "";
}

/** A value as the fault quotes it, cut to 60 characters. */
function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

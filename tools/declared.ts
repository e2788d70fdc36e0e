/** Declared tools (tools.md, "Declared tools"): commands of the agent file offered to the model as tools. */

import { coerceInput, cutText, FAULT_VALUE_LIMIT } from "../lib/tool_input.ts";
import type { DeclaredParameter, DeclaredToolConfig } from "../lib/config/config.ts";
import type { AnyTool, Parameter, Tool } from "../lib/tool.ts";
import { commandOutput } from "./_command.ts";

/** `text` ending as a sentence, so that what mm adds after it does not run on: `A flag.`. */
export function asSentence(text: string): string {
  const t = text.trim();
  return t === "" || /[.!?:;]$/.test(t) ? t : `${t}.`;
}

/** The description a parameter is declared with: its own, `One of: …`, `Optional…`. */
export function parameterDescription(p: DeclaredParameter): string {
  const parts: string[] = [];
  if (p.description?.trim()) parts.push(asSentence(p.description));
  if (p.enum?.length) parts.push(`One of: ${p.enum.map(renderValue).join(", ")}.`);
  if (p.optional) {
    parts.push(
      p.default === undefined ? "Optional." : `Optional, default ${renderValue(p.default)}.`,
    );
  }
  return parts.join(" ");
}

/** A value as it goes into the argv: integers without a decimal point, numbers without exponent. */
export function renderValue(value: string | number | boolean): string {
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") {
    if (Number.isInteger(value) && Math.abs(value) < 1e21) return BigInt(value).toString();
    return value.toLocaleString("en-US", { useGrouping: false, maximumFractionDigits: 20 });
  }
  return value;
}

/** The text that closes a declared tool's description. */
export function requiredSentence(names: string[]): string {
  return `Required parameters: ${
    names.length ? names.join(", ") : "none"
  }. Give each parameter as its own field.`;
}

/**
 * The fault of a value that starts with `-` where it would stand alone as an argument: the program
 * would take it as an option (`-o/elsewhere` to `sort` writes a file anywhere).
 */
export function dashFault(name: string, value: string, type: DeclaredParameter["type"]): string {
  const hint = type === "string" ? ` (for a file: ./${value})` : "";
  return `${name}: ${
    JSON.stringify(value)
  } starts with "-", which the program would take as an option — give a value that does not start with "-"${hint}`;
}

/** The fault of a placeholder left empty that makes its argument start with the entry's `-`. */
export function emptyDashFault(name: string, argument: string): string {
  return `${name}: left empty, it makes the argument ${
    JSON.stringify(argument)
  } start with "-", which the program would take as an option — give a value to ${name}`;
}

const PLACEHOLDER = /\{\{([A-Za-z0-9_-]+)\}\}/g;

/**
 * The faults of a call whose values would make an argument an option: an argument before any `--`
 * whose entry does not itself start with `-` but comes out starting with `-` once the values are
 * in (`{{file}}` given `-o/elsewhere`; `{{a}}{{b}}` with `a` empty and `b` `-o/elsewhere`). The
 * value that begins the argument is at fault, unless it is the agent file's own (a `default`, a
 * value of an `enum`) or its parameter says `allowDash`; a placeholder left empty is at fault when
 * the entry's own text after it starts with `-`.
 */
export function optionFaults(
  command: string[],
  params: Record<string, DeclaredParameter>,
  input: Record<string, unknown>,
): string[] {
  const faults = new Set<string>();
  const end = command.indexOf("--");
  const value = (name: string) => {
    const v = input[name] ?? params[name]?.default;
    return v === undefined ? "" : renderValue(v as string | number | boolean);
  };
  const own = (name: string) =>
    input[name] === undefined || !!params[name]?.enum?.length || !!params[name]?.allowDash;
  command.forEach((part, i) => {
    if ((end >= 0 && i > end) || part.startsWith("-")) return;
    const argument = part.replace(PLACEHOLDER, (_, name) => value(name));
    if (!argument.startsWith("-")) return;
    // The first piece that is not empty gives the argument its `-`.
    let at = 0;
    let emptied: string | undefined;
    for (const m of part.matchAll(PLACEHOLDER)) {
      if (m.index > at) break; // literal text first: it starts with "-"
      at = m.index + m[0].length;
      const name = m[1];
      if (value(name) === "") {
        emptied ??= name;
        continue;
      }
      if (!own(name)) faults.add(dashFault(name, value(name), params[name]?.type ?? "string"));
      return;
    }
    if (emptied !== undefined && !params[emptied]?.allowDash) {
      faults.add(emptyDashFault(emptied, argument));
    }
  });
  return [...faults];
}

/** The output when the command's program cannot be started. */
export function cannotStartText(program: string, reason: string): string {
  return `[error: ${program} cannot be started: ${reason}]`;
}

/** The argv of a call: every `{{p}}` replaced by its value, a lone placeholder of a left-out one removed. */
export function buildArgv(
  command: string[],
  params: Record<string, DeclaredParameter>,
  input: Record<string, unknown>,
): string[] {
  const value = (name: string): string | undefined => {
    const v = input[name] ?? params[name]?.default;
    return v === undefined ? undefined : renderValue(v as string | number | boolean);
  };
  const argv: string[] = [];
  for (const part of command) {
    const lone = part.match(/^\{\{([A-Za-z0-9_-]+)\}\}$/);
    if (lone && value(lone[1]) === undefined) continue;
    argv.push(part.replace(/\{\{([A-Za-z0-9_-]+)\}\}/g, (_, name) => value(name) ?? ""));
  }
  return argv;
}

/** Shows an argv on one line, quoting the parts a reader would misread. */
export function showArgv(argv: string[]): string {
  return argv.map((a) => a === "" || /[\s"'\\]/.test(a) ? JSON.stringify(a) : a).join(" ");
}

/** The tool of one `tools:` entry. */
export function declaredTool(entry: DeclaredToolConfig): AnyTool {
  const parameters: Record<string, Parameter> = {};
  const properties: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(entry.parameters)) {
    const description = parameterDescription(p);
    parameters[name] = { type: p.type, description, optional: p.optional };
    properties[name] = { type: p.type, description };
  }
  const required = Object.entries(entry.parameters).filter(([, p]) => !p.optional).map(([n]) => n);
  const description = [asSentence(entry.description ?? ""), requiredSentence(required)]
    .filter(Boolean).join(" ");
  const argvOf = (input: Record<string, unknown>) =>
    buildArgv(entry.command, entry.parameters, input);
  const tool: Tool<Record<string, unknown>> = {
    name: entry.name,
    kind: "execute",
    emoji: "🧰",
    asks: true,
    touches: () => "tree",
    declared: () => true,
    description,
    parameters,
    schema: { type: "object", properties },
    parse(args) {
      const coerced = coerceInput(parameters, args, true);
      const faults = coerced.ok ? [] : [...coerced.faults];
      // The values that coerced are checked against their enum even when others are at fault.
      const input = coerced.ok ? coerced.input : coerced.partial;
      for (const [name, p] of Object.entries(entry.parameters)) {
        const v = input[name];
        if (v !== undefined && p.enum?.length && !p.enum.includes(v as string)) {
          faults.push(
            `${name}: ${cutText(renderValue(v as string), FAULT_VALUE_LIMIT)} is not one of ${
              p.enum.map(renderValue).join(", ")
            }`,
          );
        }
      }
      if (!faults.length) faults.push(...optionFaults(entry.command, entry.parameters, input));
      return faults.length ? { ok: false, faults } : { ok: true, input };
    },
    summary: (input) => showArgv(argvOf(input)),
    async run(input, ctx) {
      const argv = argvOf(input);
      const timeout = entry.timeout ?? ctx.config.bashTimeout;
      const result = await ctx.exec.run({ argv, cwd: ctx.cwd, timeout, signal: ctx.signal });
      if (result.startError !== undefined) {
        return { output: cannotStartText(argv[0], result.startError), failed: true };
      }
      return commandOutput(result, timeout, ctx.config.maxOutput);
    },
  };
  return tool;
}

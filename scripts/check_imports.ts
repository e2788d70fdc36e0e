/**
 * The layer rule of docs/architecture.md, checked: every import of `main.ts`, `lib/` and `tools/`
 * goes down the layers (base ← adapters ← tools and core ← front ends and commands ← main), tools
 * and the core meet only through the base, and no module imports itself through others (a static
 * scan of the import statements, as Deno std's circular-import lint does). The rooms: no front end's
 * folder imports another's (what they share is `lib/frontend/terminal/`), and front ends see the
 * core only through its face, `lib/agent/mod.ts`, and the tools (commands too) only through
 * theirs, `tools/mod.ts`. One more rule: only `lib/exec/` starts processes (`new Deno.Command`,
 * `node:child_process`). Exits 1 with one line per fault.
 *
 * ```sh
 * deno run --allow-read scripts/check_imports.ts
 * ```
 */

import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The layers, lowest first. */
export const LAYERS = ["base", "adapter", "core", "front end", "main"] as const;

/** One of {@linkcode LAYERS}. */
export type Layer = typeof LAYERS[number];

/** The folders of `lib/` that are adapters to the outside world. */
const ADAPTERS = [
  "provider",
  "lsp",
  "mcp",
  "session",
  "hooks",
  "webmd",
  "subagent",
  "acp",
  "undo",
];

/** The layer of a module, by its path from the repository's root; undefined outside the tree. */
export function layerOf(path: string): Layer | undefined {
  if (path === "main.ts") return "main";
  if (path.startsWith("tools/")) return "core";
  const m = path.match(/^lib\/(?:([^/]+)\/)?[^/]+\.ts$|^lib\/([^/]+)\//);
  if (!m) return undefined;
  const folder = m[1] ?? m[2];
  if (folder === undefined) return "base";
  if (folder === "agent") return "core";
  if (folder === "frontend" || folder === "commands") return "front end";
  if (ADAPTERS.includes(folder)) return "adapter";
  return "base";
}

/** The part of the core a module belongs to: tools and the agent loop meet only through the base. */
function corePart(path: string): "tools" | "agent" | undefined {
  if (path.startsWith("tools/")) return "tools";
  if (path.startsWith("lib/agent/")) return "agent";
  return undefined;
}

/** Why an import from `from` to `to` breaks the layer rule, or undefined when it keeps it. */
export function layerFault(from: string, to: string): string | undefined {
  const a = layerOf(from);
  const b = layerOf(to);
  if (a === undefined || b === undefined) return undefined;
  if (LAYERS.indexOf(b) > LAYERS.indexOf(a)) {
    return `${from} (${a}) imports ${to} (${b}): an import goes down, never up`;
  }
  const pa = corePart(from);
  const pb = corePart(to);
  if (pa && pb && pa !== pb) {
    return `${from} imports ${to}: tools and the agent core meet only through lib/tool.ts`;
  }
  if (pa === "tools" && pb === "tools" && !toolMayImport(from, to)) {
    return `${from} imports ${to}: a tool imports shared helpers (tools/_*.ts), not another tool`;
  }
  return roomFault(from, to);
}

/** The folder of `lib/frontend/` whose modules every terminal front end shares. */
export const SHARED_FRONTEND = "lib/frontend/terminal/";

/** The module through which front ends and commands see the tools. */
export const TOOLS_FACE = "tools/mod.ts";

/** The module through which front ends see the core. */
export const CORE_FACE = "lib/agent/mod.ts";

/** The front end's folder of a module (`lib/frontend/line/`), or undefined (start.ts, terminal/). */
function frontEndFolder(path: string): string | undefined {
  const folder = path.match(/^lib\/frontend\/[^/]+\//)?.[0];
  return folder === SHARED_FRONTEND ? undefined : folder;
}

/**
 * Why an import from `from` to `to` breaks the rooms' rule, or undefined: a front end's folder
 * (line, window, acp) imports no other front end's; front ends and commands import the tools only
 * through {@linkcode TOOLS_FACE}, and front ends the core only through {@linkcode CORE_FACE}.
 */
export function roomFault(from: string, to: string): string | undefined {
  const folder = frontEndFolder(to);
  if (from.startsWith("lib/frontend/") && folder && !from.startsWith(folder)) {
    return `${from} imports ${to}: a front end does not import another (they share ${SHARED_FRONTEND})`;
  }
  const frontEnd = from.startsWith("lib/frontend/") || from.startsWith("lib/commands/");
  if (frontEnd && to.startsWith("tools/") && to !== TOOLS_FACE) {
    return `${from} imports ${to}: front ends and commands import the tools only through ${TOOLS_FACE}`;
  }
  if (from.startsWith("lib/frontend/") && to.startsWith("lib/agent/") && to !== CORE_FACE) {
    return `${from} imports ${to}: front ends import the core only through ${CORE_FACE}`;
  }
  return undefined;
}

/**
 * Whether tool module `from` may import tool module `to`: `tools/mod.ts` gathers every tool; a
 * tool of its own folder (`tools/lsp/`) imports its own modules; any tool imports the `_` helpers.
 */
function toolMayImport(from: string, to: string): boolean {
  if (from === "tools/mod.ts") return true;
  if (to.split("/").at(-1)!.startsWith("_")) return true;
  const folder = dirname(from);
  return folder !== "tools" && dirname(to) === folder;
}

const SPECIFIER = /(?:^|[^\w.])(?:from|import)\s*\(?\s*["'](\.\.?\/[^"']+)["']/g;

/** The relative modules `source` (the text of the module at `path`) imports, as paths from the root. */
export function importsOf(path: string, source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(SPECIFIER)) {
    found.add(relative(".", join(dirname(path), m[1])).replaceAll("\\", "/"));
  }
  return [...found];
}

/** Every import cycle of `graph` (module → what it imports), each as the modules it goes through. */
export function cycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's strongly connected components: a component of two or more modules is a cycle.
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!indices.has(v)) visit(v);
  return found;
}

/** The modules of the tree below `root`: main.ts, lib/ and tools/. */
async function modules(root: string): Promise<string[]> {
  const out: string[] = ["main.ts"];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(join(root, dir))) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (e.name.endsWith(".ts")) out.push(path);
    }
  };
  await walk("lib");
  await walk("tools");
  return out.sort();
}

/** The folder whose modules alone start processes: the one starter and what it needs. */
export const PROCESS_FOLDER = "lib/exec/";

/** What starts a process other than through the one starter (lib/exec/spawn.ts). */
const PROCESS_STARTERS = ["new Deno.Command", "node:child_process"];

/**
 * Why the module at `path` (its text `source`) breaks the process rule, or undefined: only
 * {@linkcode PROCESS_FOLDER} starts processes (`new Deno.Command`, `node:child_process`), so that
 * every child gets its own group, a clean environment, the kills and the exit registry. A static
 * text scan: comments count too.
 */
export function processFault(path: string, source: string): string | undefined {
  if (path.startsWith(PROCESS_FOLDER)) return undefined;
  const found = PROCESS_STARTERS.find((text) => source.includes(text));
  if (found === undefined) return undefined;
  return `${path} uses ${found}: a process is started only through lib/exec/spawn.ts`;
}

/** The faults of the tree below `root`: process faults, layer faults, then cycles. */
export async function checkTree(root: string): Promise<string[]> {
  const graph = new Map<string, string[]>();
  const faults: string[] = [];
  for (const path of await modules(root)) {
    const source = await Deno.readTextFile(join(root, path));
    const fault = processFault(path, source);
    if (fault) faults.push(fault);
    graph.set(path, importsOf(path, source));
  }
  for (const [from, tos] of graph) {
    for (const to of tos) {
      const fault = layerFault(from, to);
      if (fault) faults.push(fault);
    }
  }
  for (const cycle of cycles(graph)) faults.push(`import cycle: ${cycle.join(" ↔ ")}`);
  return faults;
}

if (import.meta.main) {
  const root = resolve(fileURLToPath(new URL("../", import.meta.url)));
  const faults = await checkTree(root);
  for (const f of faults) console.error(f);
  if (faults.length) {
    console.error(`${faults.length} import fault(s): see docs/architecture.md, "The layer rule"`);
    Deno.exit(1);
  }
  console.log(
    "imports: every one goes down the layers, no cycle, through the faces; processes start in lib/exec/",
  );
}

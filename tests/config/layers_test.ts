/** The agent files layered (lib/config/layers.ts): merges, scalars, paths, faults, trust found. */

import { join } from "node:path";
import { ConfigError } from "../../lib/config/errors.ts";
import { loadLayers } from "../../lib/config/layers.ts";
import { assertEquals, assertThrows } from "../helpers/assert.ts";
import { tree } from "../helpers/config.ts";

/** A tree with the user's file (`$XDG_CONFIG_HOME/mm/mm.yaml`) and the project's (`proj/mm.yaml`). */
async function layered(user: string, project: string, named?: string) {
  const files: Record<string, string> = { "xdg/mm/mm.yaml": user, "proj/mm.yaml": project };
  if (named !== undefined) files["named.yaml"] = named;
  const root = await tree(files);
  const env = { XDG_CONFIG_HOME: join(root, "xdg") };
  const flag = named === undefined ? undefined : join(root, "named.yaml");
  return { root, layers: loadLayers({ flag, env, cwd: join(root, "proj"), home: root }) };
}

Deno.test("loadLayers", async (t) => {
  await t.step("a scalar set later wins; one not set later stays", async () => {
    const { root, layers } = await layered("model: a\nyolo: false\nmaxTurns: 7\n", "model: b\n");
    assertEquals([layers.config.model, layers.config.yolo, layers.config.maxTurns], [
      "b",
      false,
      7,
    ]);
    assertEquals(layers.files.map((f) => [f.role, f.keys]), [
      ["user", ["model", "yolo", "maxTurns"]],
      ["project", ["model"]],
    ]);
    assertEquals(layers.project, undefined);
    await Deno.remove(root, { recursive: true });
  });
  await t.step("maps merge by name; hooks are appended per event", async () => {
    const { root, layers } = await layered(
      `mcpServers:
  a: {command: one}
  b: {command: two}
tools:
  - {name: t1, command: [x]}
lsp:
  servers:
    - {name: py, command: pylsp}
hooks:
  preToolCall:
    - command: [u]
sessions:
  enabled: true
`,
      `mcpServers:
  b: {command: three}
tools:
  - {name: t1, command: [y]}
  - {name: t2, command: [z]}
lsp:
  servers:
    - {name: ts, command: tsls}
hooks:
  preToolCall:
    - command: [p]
sessions:
  searchMemory: false
`,
    );
    const c = layers.config;
    assertEquals(Object.fromEntries(Object.entries(c.mcpServers).map(([k, v]) => [k, v.command])), {
      a: ["one"],
      b: ["three"],
    });
    assertEquals(c.tools.map((x) => [x.name, x.command]), [["t1", ["y"]], ["t2", ["z"]]]);
    assertEquals(c.lsp.servers.map((s) => s.name), ["py", "ts"]);
    assertEquals(c.hooks.preToolCall?.map((h) => h.command), [["u"], ["p"]]);
    assertEquals([c.sessions.enabled, c.sessions.searchMemory], [true, false]);
    // Without trust, none of the project's programs: the user's alone.
    const w = layers.withoutProject;
    assertEquals(Object.keys(w.mcpServers), ["a", "b"]);
    assertEquals(w.mcpServers.b.command, ["two"]);
    assertEquals(w.hooks.preToolCall?.map((h) => h.command), [["u"]]);
    assertEquals(w.tools.map((x) => x.command), [["x"]]);
    assertEquals(w.sessions.searchMemory, false);
    await Deno.remove(root, { recursive: true });
  });
  await t.step("the named file goes over the project's", async () => {
    const { root, layers } = await layered("model: a\n", "model: b\nyolo: false\n", "model: c\n");
    assertEquals([layers.config.model, layers.config.yolo], ["c", false]);
    assertEquals(layers.files.map((f) => f.role), ["user", "project", "named"]);
    await Deno.remove(root, { recursive: true });
  });
  await t.step("a project may tighten yolo without trust, not loosen it", async () => {
    const tight = await layered("yolo: true\n", "yolo: false\n");
    assertEquals([tight.layers.project, tight.layers.withoutProject.yolo], [undefined, false]);
    const loose = await layered("yolo: false\n", "yolo: true\n");
    assertEquals(loose.layers.project?.items.map((i) => i.key), ["yolo"]);
    assertEquals([loose.layers.config.yolo, loose.layers.withoutProject.yolo], [true, false]);
    await Deno.remove(tight.root, { recursive: true });
    await Deno.remove(loose.root, { recursive: true });
  });
  await t.step("paths are taken from the file that sets them", async () => {
    const root = await tree({
      "xdg/mm/prompt.md": "hi",
      "xdg/mm/mm.yaml": "systemFile: prompt.md\nmmConfigs:\n  r: {file: r.yaml}\n",
      "proj/mm.yaml": "system: own prompt\n",
    });
    const env = { XDG_CONFIG_HOME: join(root, "xdg") };
    const { config } = loadLayers({ env, cwd: join(root, "proj"), home: root });
    assertEquals([config.system, config.systemFile], ["own prompt", undefined]);
    assertEquals(config.mmConfigs.r.file, join(root, "xdg/mm/r.yaml"));
    await Deno.remove(root, { recursive: true });
  });
  await t.step("a fault names the file that holds it", async () => {
    const root = await tree({ "xdg/mm/mm.yaml": "model: a\nyolo: nope\n", "proj/mm.yaml": "" });
    const env = { XDG_CONFIG_HOME: join(root, "xdg") };
    const e = assertThrows(
      () => loadLayers({ env, cwd: join(root, "proj"), home: root }),
      ConfigError,
    );
    assertEquals(
      e.message,
      `${join(root, "xdg/mm/mm.yaml")}:2:7: yolo: expected true or false, found "nope"`,
    );
    await Deno.remove(root, { recursive: true });
  });
  await t.step("the trust hash changes with a trust-relevant key only", async () => {
    const hooks = (cmd: string) => `hooks:\n  preGeneration:\n    - command: [${cmd}]\n`;
    const { root, layers } = await layered("", `model: a\n${hooks("x")}`);
    const file = join(root, "proj/mm.yaml");
    const load = () =>
      loadLayers({ env: { XDG_CONFIG_HOME: join(root, "xdg") }, cwd: join(root, "proj") });
    assertEquals(layers.project?.items.map((i) => i.text), ["hooks.preGeneration: x"]);
    await Deno.writeTextFile(file, `model: b\n${hooks("x")}`);
    assertEquals(load().project?.hash, layers.project?.hash);
    await Deno.writeTextFile(file, `model: a\n${hooks("y")}`);
    assertEquals(load().project?.hash === layers.project?.hash, false);
    await Deno.remove(root, { recursive: true });
  });
});

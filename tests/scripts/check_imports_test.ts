/** The layer rule, the rooms and the cycle check of `deno task check` (scripts/check_imports.ts). */

import { fileURLToPath } from "node:url";
import { join } from "node:path";
import {
  checkTree,
  cycles,
  importsOf,
  layerFault,
  layerOf,
  processFault,
  roomFault,
} from "../../scripts/check_imports.ts";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { tempDir } from "../helpers/mm.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

Deno.test("check_imports: the layer of each part of the tree", () => {
  assertEquals(layerOf("main.ts"), "main");
  assertEquals(layerOf("lib/history.ts"), "base");
  assertEquals(layerOf("lib/config/load.ts"), "base");
  assertEquals(layerOf("lib/provider/chat.ts"), "adapter");
  assertEquals(layerOf("lib/subagent/child.ts"), "adapter");
  assertEquals(layerOf("lib/mcp/server.ts"), "adapter");
  assertEquals(layerOf("lib/agent/agent.ts"), "core");
  assertEquals(layerOf("tools/lsp/mod.ts"), "core");
  assertEquals(layerOf("lib/frontend/line/line.ts"), "front end");
  assertEquals(layerOf("lib/commands/doctor.ts"), "front end");
  assertEquals(layerOf("tests/helpers/mm.ts"), undefined);
});

Deno.test("check_imports: an import up, or between tools and the core, is a fault", () => {
  assertEquals(layerFault("lib/agent/agent.ts", "lib/provider/chat.ts"), undefined);
  assertEquals(layerFault("lib/frontend/start.ts", "tools/mod.ts"), undefined);
  assertStringIncludes(
    layerFault("lib/tool.ts", "lib/provider/chat.ts") ?? "",
    "lib/tool.ts (base) imports lib/provider/chat.ts (adapter)",
  );
  assertStringIncludes(
    layerFault("tools/edit_file.ts", "lib/agent/agent.ts") ?? "",
    "tools and the agent core meet only through lib/tool.ts",
  );
  assertStringIncludes(layerFault("lib/agent/agent.ts", "main.ts") ?? "", "never up");
  assertStringIncludes(
    layerFault("tools/edit_file.ts", "tools/read_file.ts") ?? "",
    "a tool imports shared helpers (tools/_*.ts), not another tool",
  );
  assertEquals(layerFault("tools/edit_file.ts", "tools/_files.ts"), undefined);
  assertEquals(layerFault("tools/lsp/mod.ts", "tools/lsp/texts.ts"), undefined);
  assertEquals(layerFault("tools/mod.ts", "tools/lsp/mod.ts"), undefined);
  assertStringIncludes(
    layerFault("tools/edit_file.ts", "tools/edit_match.ts") ?? "",
    "not another tool",
  );
  assertEquals(layerFault("tools/edit_file/mod.ts", "tools/edit_file/match.ts"), undefined);
});

Deno.test("check_imports: the relative imports of a module, static and dynamic", () => {
  const source = [
    `import type { A } from "../tool.ts";`,
    `import { b } from "./b.ts";`,
    `export { c } from "../c/c.ts";`,
    `const m = await import("../lazy.ts");`,
    `import x from "npm:openai@7.59.0";`,
    `import { join } from "node:path";`,
  ].join("\n");
  assertEquals(importsOf("lib/agent/agent.ts", source), [
    "lib/tool.ts",
    "lib/agent/b.ts",
    "lib/c/c.ts",
    "lib/lazy.ts",
  ]);
});

Deno.test("check_imports: cycles are found, a tree without one has none", () => {
  const graph = new Map([
    ["a.ts", ["b.ts"]],
    ["b.ts", ["c.ts"]],
    ["c.ts", ["a.ts", "d.ts"]],
    ["d.ts", []],
    ["e.ts", ["e.ts"]],
  ]);
  assertEquals(cycles(graph), [["a.ts", "b.ts", "c.ts"], ["e.ts"]]);
  assertEquals(cycles(new Map([["a.ts", ["b.ts"]], ["b.ts", []]])), []);
});

Deno.test("check_imports: this tree keeps the rule; a tree that breaks it is told why", async () => {
  assertEquals(await checkTree(ROOT), []);
  const dir = await tempDir("mm-imports-");
  await Deno.mkdir(join(dir, "lib/agent"), { recursive: true });
  await Deno.mkdir(join(dir, "tools"));
  await Deno.writeTextFile(join(dir, "main.ts"), `import "./lib/tool.ts";\n`);
  await Deno.writeTextFile(join(dir, "lib/tool.ts"), `import "./agent/agent.ts";\n`);
  await Deno.writeTextFile(join(dir, "lib/agent/agent.ts"), `import "../tool.ts";\n`);
  const faults = await checkTree(dir);
  assertEquals(faults, [
    "lib/tool.ts (base) imports lib/agent/agent.ts (core): an import goes down, never up",
    "import cycle: lib/agent/agent.ts ↔ lib/tool.ts",
  ]);
});

Deno.test("check_imports: only lib/exec/ starts processes", async () => {
  const command = `const c = new Deno.Command("ls", {}).spawn();`;
  const node = `const { spawn } = await import("node:child_process");`;
  assertEquals(processFault("lib/exec/spawn.ts", command), undefined);
  assertEquals(processFault("lib/exec/other.ts", node), undefined);
  assertEquals(processFault("lib/hooks/run.ts", `const s: Deno.CommandStatus = x;`), undefined);
  assertEquals(
    processFault("lib/hooks/run.ts", command),
    "lib/hooks/run.ts uses new Deno.Command: a process is started only through lib/exec/spawn.ts",
  );
  assertEquals(
    processFault("lib/lsp/client.ts", `import type { ChildProcess } from "node:child_process";`),
    "lib/lsp/client.ts uses node:child_process: a process is started only through lib/exec/spawn.ts",
  );
  assertEquals(processFault("tools/bash.ts", node)?.startsWith("tools/bash.ts uses"), true);
  const dir = await tempDir("mm-processes-");
  await Deno.mkdir(join(dir, "lib/exec"), { recursive: true });
  await Deno.mkdir(join(dir, "tools"));
  await Deno.writeTextFile(join(dir, "main.ts"), command);
  await Deno.writeTextFile(join(dir, "lib/exec/spawn.ts"), command);
  assertEquals(await checkTree(dir), [
    "main.ts uses new Deno.Command: a process is started only through lib/exec/spawn.ts",
  ]);
});

Deno.test("check_imports: the rooms — no front end imports another, each face is the only door", async (t) => {
  await t.step("line, window and editor mode import none of each other; all use terminal/", () => {
    assertEquals(
      layerFault("lib/frontend/line/editor.ts", "lib/frontend/window/input.ts"),
      "lib/frontend/line/editor.ts imports lib/frontend/window/input.ts: a front end does not " +
        "import another (they share lib/frontend/terminal/)",
    );
    assertStringIncludes(
      roomFault("lib/frontend/acp/session.ts", "lib/frontend/line/render.ts") ?? "",
      "a front end does not import another",
    );
    assertStringIncludes(
      roomFault("lib/frontend/terminal/plain.ts", "lib/frontend/window/width.ts") ?? "",
      "a front end does not import another",
    );
    assertStringIncludes(
      roomFault("lib/frontend/start.ts", "lib/frontend/acp/session.ts") ?? "",
      "a front end does not import another",
    );
    assertEquals(
      roomFault("lib/frontend/line/editor.ts", "lib/frontend/terminal/width.ts"),
      undefined,
    );
    assertEquals(
      roomFault("lib/frontend/window/window.ts", "lib/frontend/window/input.ts"),
      undefined,
    );
    assertEquals(roomFault("lib/frontend/acp/agent.ts", "lib/frontend/start.ts"), undefined);
    assertEquals(roomFault("lib/frontend/line/line.ts", "lib/frontend/exit.ts"), undefined);
  });
  await t.step("front ends and commands import the tools through tools/mod.ts only", () => {
    assertEquals(
      layerFault("lib/frontend/line/line.ts", "tools/lsp/texts.ts"),
      "lib/frontend/line/line.ts imports tools/lsp/texts.ts: front ends and commands import the " +
        "tools only through tools/mod.ts",
    );
    assertStringIncludes(
      roomFault("lib/commands/doctor_mcp.ts", "tools/mcp/tool.ts") ?? "",
      "only through tools/mod.ts",
    );
    assertStringIncludes(
      roomFault("lib/frontend/start.ts", "tools/_files.ts") ?? "",
      "tools/mod.ts",
    );
    assertEquals(roomFault("lib/frontend/start.ts", "tools/mod.ts"), undefined);
    assertEquals(roomFault("lib/commands/doctor.ts", "tools/mod.ts"), undefined);
    assertEquals(roomFault("lib/subagent/ask.ts", "tools/ask_agent.ts"), undefined);
  });
  await t.step("front ends import the core through lib/agent/mod.ts only", () => {
    assertEquals(
      layerFault("lib/frontend/window/window.ts", "lib/agent/commands.ts"),
      "lib/frontend/window/window.ts imports lib/agent/commands.ts: front ends import the core " +
        "only through lib/agent/mod.ts",
    );
    assertStringIncludes(
      roomFault("lib/frontend/terminal/plain.ts", "lib/agent/recap.ts") ?? "",
      "only through lib/agent/mod.ts",
    );
    assertEquals(roomFault("lib/frontend/start.ts", "lib/agent/mod.ts"), undefined);
    assertEquals(roomFault("lib/agent/mod.ts", "lib/agent/agent.ts"), undefined);
  });
  await t.step("a tree that breaks them is told why", async () => {
    const dir = await tempDir("mm-rooms-");
    for (const d of ["lib/frontend/line", "lib/frontend/window", "lib/agent", "tools/lsp"]) {
      await Deno.mkdir(join(dir, d), { recursive: true });
    }
    await Deno.writeTextFile(join(dir, "main.ts"), "");
    await Deno.writeTextFile(join(dir, "lib/frontend/window/input.ts"), "");
    await Deno.writeTextFile(join(dir, "lib/agent/agent.ts"), "");
    await Deno.writeTextFile(join(dir, "tools/lsp/texts.ts"), "");
    await Deno.writeTextFile(
      join(dir, "lib/frontend/line/line.ts"),
      [
        `import "../window/input.ts";`,
        `import "../../agent/agent.ts";`,
        `import "../../../tools/lsp/texts.ts";`,
      ].join("\n"),
    );
    assertEquals(await checkTree(dir), [
      "lib/frontend/line/line.ts imports lib/frontend/window/input.ts: a front end does not " +
      "import another (they share lib/frontend/terminal/)",
      "lib/frontend/line/line.ts imports lib/agent/agent.ts: front ends import the core only " +
      "through lib/agent/mod.ts",
      "lib/frontend/line/line.ts imports tools/lsp/texts.ts: front ends and commands import the " +
      "tools only through tools/mod.ts",
    ]);
  });
});

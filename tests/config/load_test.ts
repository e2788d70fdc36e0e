/** The agent file loaded (lib/config/load.ts): over the defaults and environment; found, read. */

import { join } from "node:path";
import { defaultConfig } from "../../lib/config/config.ts";
import { ConfigError } from "../../lib/config/errors.ts";
import { loadConfig } from "../../lib/config/load.ts";
import { assertEquals, assertThrows } from "../helpers/assert.ts";
import { parse, tree, withDefaults } from "../helpers/config.ts";

Deno.test("parseConfig: defaults", async (t) => {
  await t.step("every key's default, as mm.md §2 gives it", () => {
    assertEquals(parse(""), {
      file: "mm.yaml",
      provider: "ollama",
      url: "http://localhost:11434",
      thinking: "auto",
      sendReasoning: "auto",
      yolo: true,
      bashTool: true,
      bashTimeout: 30_000,
      editTools: true,
      maxOutput: 16_000,
      previewLines: 5,
      maxTurns: 50,
      watchdogTimeout: 120_000,
      turnTimeout: 1_800_000,
      skillsDir: ".mm/skills",
      fetchContentTool: false,
      askUserTool: true,
      saveAnswerTool: false,
      unloadModels: true,
      warmup: true,
      notify: "bell",
      lsp: { servers: [] },
      mmConfigs: {},
      sessions: {
        // Sessions on by default, in the state folder (issue 26; supersedes mm.md's `false`).
        enabled: true,
        dir: "",
        keep: 200,
        autoSearchMemory: false,
        searchMemory: true,
      },
      hooks: {},
      tools: [],
      mcpServers: {},
      mcp: { catalog: "auto", budget: 4000, maxTools: 12 },
      acp: { title: "mm" },
      window: { mouse: true },
      sandbox: "off",
      sandboxNetwork: true,
      permissions: { allow: [], ask: [], deny: [] },
    });
  });
  await t.step("keys with no default are absent", () => {
    const c = parse("");
    for (
      const key of [
        "model",
        "apiKey",
        "system",
        "systemFile",
        "structuredOutput",
        "outputSchema",
      ] as const
    ) {
      assertEquals(key in c, false, key);
    }
    for (const key of ["temperature", "topP", "maxTokens", "contextSize"] as const) {
      assertEquals(key in c, false, key);
    }
  });
  await t.step("a file of comments only", () => {
    assertEquals(parse("# my agent\n\n# yolo: false\n"), withDefaults({}));
  });
  await t.step("a document marker only", () => assertEquals(parse("---\n"), withDefaults({})));
  await t.step("a byte order mark", () => {
    assertEquals(parse("\uFEFFyolo: false\n"), withDefaults({ yolo: false }));
  });
  await t.step("apiKey from $MM_API_KEY", () => {
    assertEquals(parse("", { MM_API_KEY: "sk-1" }).apiKey, "sk-1");
  });
  await t.step("an empty $MM_API_KEY is no key", () => {
    assertEquals("apiKey" in parse("", { MM_API_KEY: "" }), false);
  });
  await t.step("apiKey in the file wins over $MM_API_KEY", () => {
    assertEquals(parse("apiKey: sk-file\n", { MM_API_KEY: "sk-env" }).apiKey, "sk-file");
  });
  await t.step("defaultConfig() is a fresh object each time", () => {
    const a = parse("");
    a.tools.push({ name: "x", command: ["x"], parameters: {} });
    assertEquals(parse("").tools, []);
  });
});

Deno.test("loadConfig", async (t) => {
  const root = await tree({
    "proj/mm.yaml": "model: qwen3:8b\nyolo: false\n",
    "bad/mm.yaml": "# header\nyolo: nope\n",
    "empty/.keep": "",
  });
  try {
    await t.step("finds, reads and parses", () => {
      const c = loadConfig({ env: {}, cwd: join(root, "proj"), home: join(root, "empty") });
      assertEquals(
        c,
        { ...defaultConfig(), file: join(root, "proj/mm.yaml"), model: "qwen3:8b", yolo: false },
      );
    });
    await t.step("no file: the defaults, apiKey from the environment", () => {
      const c = loadConfig({
        env: { MM_API_KEY: "k" },
        cwd: join(root, "empty"),
        home: join(root, "empty"),
      });
      assertEquals(c, { ...defaultConfig(), apiKey: "k" });
    });
    await t.step("no file and no key: exactly the defaults", () => {
      assertEquals(
        loadConfig({ env: {}, cwd: join(root, "empty"), home: join(root, "empty") }),
        defaultConfig(),
      );
    });
    await t.step("a bad file: the error names the file's path", () => {
      const file = join(root, "bad/mm.yaml");
      const err = assertThrows(
        () => loadConfig({ env: {}, cwd: join(root, "bad"), home: join(root, "empty") }),
        ConfigError,
      );
      assertEquals(err.message, `${file}:2:7: yolo: expected true or false, found "nope"`);
    });
    await t.step("-c naming a missing file", () => {
      assertThrows(
        () => loadConfig({ flag: "x.yaml", env: {}, cwd: join(root, "empty") }),
        ConfigError,
        "the agent file named by -c does not exist",
      );
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

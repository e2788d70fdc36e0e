/** The agent file's keys (lib/config/schema.ts): values accepted and rejected, unknown keys. */

import { type Config, DEFAULT_URLS } from "../../lib/config/config.ts";
import { parseConfig } from "../../lib/config/load.ts";
import { assertEquals } from "../helpers/assert.ts";
import { fault, parse, withDefaults } from "../helpers/config.ts";

/** The known top-level keys as the "unknown key" message lists them. */
const TOP_KEYS =
  "provider, url, model, apiKey, system, systemFile, temperature, topP, maxTokens, " +
  "contextSize, thinking, reasoningEffort, sendReasoning, yolo, bashTool, bashTimeout, editTools, maxOutput, previewLines, maxTurns, " +
  "watchdogTimeout, turnTimeout, skillsDir, fetchContentTool, askUserTool, saveAnswerTool, unloadModels, warmup, notify, " +
  "outputSchema, structuredOutput, lsp, mmConfigs, sessions, hooks, tools, mcpServers, mcp, acp, window, " +
  "sandbox, sandboxNetwork, permissions";

/** The schema of the outputSchema rows. */
const ANSWER_SCHEMA = {
  type: "object",
  properties: { answer: { type: "string" } },
  required: ["answer"],
};

Deno.test("parseConfig: accepted values", async (t) => {
  const rows: [string, string, Partial<Config>][] = [
    ["provider ollama", "provider: ollama", { provider: "ollama", url: DEFAULT_URLS.ollama }],
    ["provider llmman", "provider: llmman", { provider: "llmman", url: "http://localhost:11434" }],
    [
      "provider llamacpp",
      "provider: llamacpp",
      { provider: "llamacpp", url: "http://localhost:8080" },
    ],
    ["provider dmr", "provider: dmr", { provider: "dmr", url: "http://localhost:12434" }],
    ["provider openai", "provider: openai", {
      provider: "openai",
      url: "https://api.openai.com/v1",
    }],
    [
      "provider with url",
      "provider: openai\nurl: http://gpu:8000/v1",
      { provider: "openai", url: "http://gpu:8000/v1" },
    ],
    [
      "url before provider",
      "url: http://gpu:8080\nprovider: llamacpp",
      { provider: "llamacpp", url: "http://gpu:8080" },
    ],
    ["url alone", "url: http://192.168.1.5:11434", { url: "http://192.168.1.5:11434" }],
    ["url https", "url: https://example.com/v1", { url: "https://example.com/v1" }],
    ["url trailing slashes dropped", "url: http://gpu:8080//", { url: "http://gpu:8080" }],
    ["model", "model: qwen3:8b", { model: "qwen3:8b" }],
    ["apiKey", "apiKey: sk-123", { apiKey: "sk-123" }],
    ["system", "system: You are terse.", { system: "You are terse." }],
    ["system empty", 'system: ""', { system: "" }],
    ["system block", "system: |\n  Line one.\n  Line two.\n", { system: "Line one.\nLine two.\n" }],
    ["systemFile", "systemFile: prompts/system.md", { systemFile: "prompts/system.md" }],
    ["temperature", "temperature: 0.2", { temperature: 0.2 }],
    ["temperature 0", "temperature: 0", { temperature: 0 }],
    ["temperature 2", "temperature: 2", { temperature: 2 }],
    ["topP", "topP: 0.9", { topP: 0.9 }],
    ["topP 1", "topP: 1", { topP: 1 }],
    ["maxTokens", "maxTokens: 4096", { maxTokens: 4096 }],
    ["contextSize", "contextSize: 32768", { contextSize: 32768 }],
    ["thinking on", "thinking: on", { thinking: "on" }],
    ["thinking off", "thinking: off", { thinking: "off" }],
    ["thinking false (a YAML 1.1 boolean)", "thinking: false", { thinking: "off" }],
    ["thinking auto", "thinking: auto", { thinking: "auto" }],
    ["reasoningEffort", "reasoningEffort: high", { reasoningEffort: "high" }],
    ["sendReasoning always", "sendReasoning: always", { sendReasoning: "always" }],
    ["sendReasoning never", "sendReasoning: never", { sendReasoning: "never" }],
    ["yolo false", "yolo: false", { yolo: false }],
    ["yolo true", "yolo: true", { yolo: true }],
    ["yolo with a space before the colon", "yolo : false", { yolo: false }],
    ["bashTool", "bashTool: false", { bashTool: false }],
    ["bashTimeout", "bashTimeout: 2m", { bashTimeout: 120_000 }],
    ["bashTimeout ms", "bashTimeout: 1500ms", { bashTimeout: 1500 }],
    ["bashTimeout compound", "bashTimeout: 1m30s", { bashTimeout: 90_000 }],
    ["editTools", "editTools: false", { editTools: false }],
    ["maxOutput", "maxOutput: 8000", { maxOutput: 8000 }],
    ["maxOutput 1", "maxOutput: 1", { maxOutput: 1 }],
    ["previewLines", "previewLines: 10", { previewLines: 10 }],
    ["previewLines 0", "previewLines: 0", { previewLines: 0 }],
    ["maxTurns", "maxTurns: 5", { maxTurns: 5 }],
    ["watchdogTimeout", "watchdogTimeout: 5m", { watchdogTimeout: 300_000 }],
    ["turnTimeout", "turnTimeout: 1h", { turnTimeout: 3_600_000 }],
    ["skillsDir", "skillsDir: skills", { skillsDir: "skills" }],
    ["fetchContentTool", "fetchContentTool: true", { fetchContentTool: true }],
    ["askUserTool", "askUserTool: false", { askUserTool: false }],
    ["saveAnswerTool", "saveAnswerTool: true", { saveAnswerTool: true }],
    ["unloadModels", "unloadModels: false", { unloadModels: false }],
    ["warmup", "warmup: false", { warmup: false }],
    ["notify off", "notify: off", { notify: "off" }],
    ["notify bell", "notify: bell", { notify: "bell" }],
    [
      "outputSchema: the answer's JSON Schema, read into both fields",
      "outputSchema:\n  type: object\n  properties:\n    answer: {type: string}\n  required: [answer]",
      {
        outputSchema: ANSWER_SCHEMA,
        structuredOutput: ANSWER_SCHEMA,
      },
    ],
    [
      "structuredOutput: the old name of outputSchema, read into both fields",
      "structuredOutput:\n  type: object\n  properties:\n    answer: {type: string}\n  required: [answer]",
      {
        outputSchema: ANSWER_SCHEMA,
        structuredOutput: ANSWER_SCHEMA,
      },
    ],
    [
      "lsp.servers",
      [
        "lsp:",
        "  servers:",
        "    - name: deno",
        "      command: deno",
        "      args: [lsp]",
        "      extensions: [.ts, .tsx]",
        "      initializationOptions: {enable: true, lint: true}",
        "    - name: gopls",
        "      command: gopls",
      ].join("\n"),
      {
        lsp: {
          servers: [
            {
              name: "deno",
              command: "deno",
              args: ["lsp"],
              extensions: [".ts", ".tsx"],
              initializationOptions: { enable: true, lint: true },
            },
            { name: "gopls", command: "gopls", args: [], extensions: [] },
          ],
        },
      },
    ],
    ["lsp empty", "lsp:", { lsp: { servers: [] } }],
    ["lsp.servers empty", "lsp:\n  servers:", { lsp: { servers: [] } }],
    [
      "mmConfigs",
      [
        "mmConfigs:",
        "  reviewer:",
        "    file: agents/reviewer.yaml",
        "    description: Reviews a diff",
        "    yolo: false",
        "  helper:",
        "    file: helper.yaml",
      ].join("\n"),
      {
        mmConfigs: {
          reviewer: { file: "agents/reviewer.yaml", description: "Reviews a diff", yolo: false },
          helper: { file: "helper.yaml" },
        },
      },
    ],
    [
      "sessions",
      "sessions:\n  enabled: true\n  dir: /tmp/s\n  keep: 5\n  autoSearchMemory: true\n  searchMemory: false",
      {
        sessions: {
          enabled: true,
          dir: "/tmp/s",
          keep: 5,
          autoSearchMemory: true,
          searchMemory: false,
        },
      },
    ],
    [
      "sessions, one key",
      "sessions:\n  enabled: true",
      {
        sessions: {
          enabled: true,
          dir: "",
          keep: 200,
          autoSearchMemory: false,
          searchMemory: true,
        },
      },
    ],
    [
      "hooks",
      [
        "hooks:",
        "  preGeneration:",
        "    - command: [./ctx.sh]",
        "  preToolCall:",
        "    - matcher: bash",
        "      command: [./guard.sh, --strict]",
        "      timeout: 5s",
        "    - matcher: ^(write|edit)_file$",
        "      command: [./check.sh]",
        "  postToolCall:",
        "    - command: [./post.sh]",
        "  preAsk:",
        "    - command: [./pre-ask.sh]",
        "  postAsk: []",
      ].join("\n"),
      {
        hooks: {
          preGeneration: [{ command: ["./ctx.sh"] }],
          preToolCall: [
            { matcher: "bash", command: ["./guard.sh", "--strict"], timeout: 5000 },
            { matcher: "^(write|edit)_file$", command: ["./check.sh"] },
          ],
          postToolCall: [{ command: ["./post.sh"] }],
          preAsk: [{ command: ["./pre-ask.sh"] }],
          postAsk: [],
        },
      },
    ],
    [
      "tools",
      [
        "tools:",
        "  - name: run_tests",
        "    description: Runs the tests of one package",
        '    command: [go, test, "./{{pkg}}/...", "-run={{run}}", "{{verbose}}"]',
        "    parameters:",
        "      pkg: {type: string, description: the package}",
        "      run: {type: string, optional: true}",
        "      verbose: {type: boolean, default: false}",
        "      count: {type: integer, enum: [1, 2, 3], default: 1}",
        "      ratio: {type: number, enum: [0.5, 1]}",
        "      mode: {enum: [fast, slow]}",
        "    timeout: 2m",
        "  - name: hello-world",
        "    command: [echo, hi]",
      ].join("\n"),
      {
        tools: [
          {
            name: "run_tests",
            description: "Runs the tests of one package",
            command: ["go", "test", "./{{pkg}}/...", "-run={{run}}", "{{verbose}}"],
            parameters: {
              pkg: { type: "string", description: "the package" },
              run: { type: "string", optional: true },
              verbose: { type: "boolean", default: false },
              count: { type: "integer", enum: [1, 2, 3], default: 1 },
              ratio: { type: "number", enum: [0.5, 1] },
              mode: { type: "string", enum: ["fast", "slow"] },
            },
            timeout: 120_000,
          },
          { name: "hello-world", command: ["echo", "hi"], parameters: {} },
        ],
      },
    ],
    ["tools empty", "tools:", { tools: [] }],
    ["acp.title", "acp:\n  title: My agent", { acp: { title: "My agent" } }],
    ["window.mouse", "window:\n  mouse: false", { window: { mouse: false } }],
    ["sandbox off", "sandbox: off", { sandbox: "off" }],
    ["sandbox workspace", "sandbox: workspace", { sandbox: "workspace" }],
    ["sandbox readonly", "sandbox: readonly", { sandbox: "readonly" }],
    ["sandboxNetwork false", "sandboxNetwork: false", { sandboxNetwork: false }],
    [
      "sandbox with its network off",
      "sandbox: workspace\nsandboxNetwork: false",
      { sandbox: "workspace", sandboxNetwork: false },
    ],
  ];
  for (const [name, yaml, changes] of rows) {
    await t.step(name, () => assertEquals(parse(yaml), withDefaults(changes)));
  }
  await t.step("an anchor and an alias", () => {
    const c = parse("bashTimeout: &t 2m\nwatchdogTimeout: *t");
    assertEquals([c.bashTimeout, c.watchdogTimeout], [120_000, 120_000]);
  });
  await t.step("Config.file is the path given", () => {
    assertEquals(parseConfig("", "/home/u/proj/mm.yaml", {}).file, "/home/u/proj/mm.yaml");
  });
});

Deno.test("parseConfig: rejected values", async (t) => {
  const rows: [string, string, string][] = [
    // top level
    [
      "a list at the top",
      "- yolo",
      "mm.yaml:1:1: expected a mapping of keys (key: value lines), found a list",
    ],
    [
      "a string at the top",
      "hello",
      'mm.yaml:1:1: expected a mapping of keys (key: value lines), found "hello"',
    ],
    ["a number as a key", "1: x", "mm.yaml:1:1: expected a key name, found 1"],
    [
      "a key twice",
      "yolo: true\nbashTool: true\nyolo: false",
      'mm.yaml:3:1: yolo: expected one value, found a second "yolo" key (the first is on line 1)',
    ],
    // provider, url
    [
      "provider misspelt",
      "provider: olama",
      'mm.yaml:1:11: provider: expected one of ollama, llamacpp, lmstudio, vllm, dmr, llmman, openai, found "olama" — did you mean "ollama"?',
    ],
    [
      "provider unknown",
      "provider: anthropic",
      'mm.yaml:1:11: provider: expected one of ollama, llamacpp, lmstudio, vllm, dmr, llmman, openai, found "anthropic"',
    ],
    [
      "provider case",
      "provider: Ollama",
      'mm.yaml:1:11: provider: expected one of ollama, llamacpp, lmstudio, vllm, dmr, llmman, openai, found "Ollama" — did you mean "ollama"?',
    ],
    [
      "provider a number",
      "provider: 3",
      "mm.yaml:1:11: provider: expected a string, found 3",
    ],
    [
      "url without a scheme",
      "url: localhost:11434",
      'mm.yaml:1:6: url: expected an http:// or https:// URL, found "localhost:11434" — write "http://localhost:11434"',
    ],
    [
      "url another scheme",
      "url: ftp://host",
      'mm.yaml:1:6: url: expected an http:// or https:// URL, found "ftp://host"',
    ],
    ["url empty", 'url: ""', 'mm.yaml:1:6: url: expected an http:// or https:// URL, found ""'],
    ["url a number", "url: 8080", "mm.yaml:1:6: url: expected a string, found 8080"],
    // strings
    ["model a number", "model: 7", "mm.yaml:1:8: model: expected a non-empty string, found 7"],
    ["model empty", 'model: ""', 'mm.yaml:1:8: model: expected a non-empty string, found ""'],
    ["model nothing", "model:", "mm.yaml:1:7: model: expected a non-empty string, found nothing"],
    ["model null", "model: null", "mm.yaml:1:8: model: expected a non-empty string, found null"],
    [
      "model a list",
      "model: [a, b]",
      "mm.yaml:1:8: model: expected a non-empty string, found a list",
    ],
    [
      "apiKey a number",
      "apiKey: 123",
      "mm.yaml:1:9: apiKey: expected a non-empty string, found 123",
    ],
    [
      "system a mapping",
      "system: {a: 1}",
      "mm.yaml:1:9: system: expected a string, found a mapping",
    ],
    [
      "systemFile true",
      "systemFile: true",
      "mm.yaml:1:13: systemFile: expected a non-empty string, found true",
    ],
    [
      "system and systemFile",
      "system: Be terse.\nyolo: true\nsystemFile: p.md",
      "mm.yaml:3:1: systemFile: expected only one of system and systemFile, found both (system is on line 1)",
    ],
    [
      "systemFile and system",
      "systemFile: p.md\nsystem: Be terse.",
      "mm.yaml:2:1: system: expected only one of system and systemFile, found both (systemFile is on line 1)",
    ],
    [
      "skillsDir empty",
      'skillsDir: " "',
      'mm.yaml:1:12: skillsDir: expected a non-empty string, found " "',
    ],
    // numbers
    [
      "temperature too high",
      "temperature: 2.5",
      "mm.yaml:1:14: temperature: expected a number from 0 to 2, found 2.5",
    ],
    [
      "temperature negative",
      "temperature: -0.1",
      "mm.yaml:1:14: temperature: expected a number from 0 to 2, found -0.1",
    ],
    [
      "temperature a string",
      'temperature: "0.2"',
      'mm.yaml:1:14: temperature: expected a number from 0 to 2, found "0.2"',
    ],
    [
      "temperature NaN",
      "temperature: .nan",
      "mm.yaml:1:14: temperature: expected a number from 0 to 2, found NaN",
    ],
    ["topP too high", "topP: 1.5", "mm.yaml:1:7: topP: expected a number from 0 to 1, found 1.5"],
    ["topP negative", "topP: -1", "mm.yaml:1:7: topP: expected a number from 0 to 1, found -1"],
    ["maxTokens zero", "maxTokens: 0", "mm.yaml:1:12: maxTokens: expected an integer ≥ 1, found 0"],
    [
      "maxTokens a fraction",
      "maxTokens: 1.5",
      "mm.yaml:1:12: maxTokens: expected an integer ≥ 1, found 1.5",
    ],
    [
      "thinking misspelt",
      "thinking: of",
      'mm.yaml:1:11: thinking: expected one of auto, on, off, found "of" — did you mean "on"?',
    ],
    [
      "reasoningEffort unknown",
      "reasoningEffort: max",
      'mm.yaml:1:18: reasoningEffort: expected one of low, medium, high, found "max"',
    ],
    [
      "sendReasoning unknown",
      "sendReasoning: yes",
      'mm.yaml:1:16: sendReasoning: expected one of auto, always, never, found "yes"',
    ],
    [
      "contextSize negative",
      "contextSize: -8",
      "mm.yaml:1:14: contextSize: expected an integer ≥ 1, found -8",
    ],
    [
      "contextSize infinite",
      "contextSize: .inf",
      "mm.yaml:1:14: contextSize: expected an integer ≥ 1, found Infinity",
    ],
    ["maxOutput zero", "maxOutput: 0", "mm.yaml:1:12: maxOutput: expected an integer ≥ 1, found 0"],
    [
      "maxOutput with underscores (a string in YAML 1.2)",
      "maxOutput: 16_000",
      'mm.yaml:1:12: maxOutput: expected an integer ≥ 1, found "16_000"',
    ],
    [
      "previewLines negative",
      "previewLines: -1",
      "mm.yaml:1:15: previewLines: expected an integer ≥ 0, found -1",
    ],
    [
      "previewLines a fraction",
      "previewLines: 2.5",
      "mm.yaml:1:15: previewLines: expected an integer ≥ 0, found 2.5",
    ],
    ["maxTurns zero", "maxTurns: 0", "mm.yaml:1:11: maxTurns: expected an integer ≥ 1, found 0"],
    [
      "maxTurns true",
      "maxTurns: true",
      "mm.yaml:1:11: maxTurns: expected an integer ≥ 1, found true",
    ],
    // booleans
    ["yolo a word", "yolo: nope", 'mm.yaml:1:7: yolo: expected true or false, found "nope"'],
    [
      "yolo yes (a string in YAML 1.2)",
      "yolo: yes",
      'mm.yaml:1:7: yolo: expected true or false, found "yes"',
    ],
    ["yolo no", "yolo: no", 'mm.yaml:1:7: yolo: expected true or false, found "no"'],
    ["yolo quoted", 'yolo: "false"', 'mm.yaml:1:7: yolo: expected true or false, found "false"'],
    ["yolo 0", "yolo: 0", "mm.yaml:1:7: yolo: expected true or false, found 0"],
    ["yolo nothing", "yolo:", "mm.yaml:1:6: yolo: expected true or false, found nothing"],
    [
      "yolo in a flow mapping without value",
      "{yolo}",
      "mm.yaml:1:2: yolo: expected true or false, found nothing",
    ],
    ["bashTool", "bashTool: 1", "mm.yaml:1:11: bashTool: expected true or false, found 1"],
    ["editTools", "editTools: off", 'mm.yaml:1:12: editTools: expected true or false, found "off"'],
    [
      "fetchContentTool",
      "fetchContentTool: []",
      "mm.yaml:1:19: fetchContentTool: expected true or false, found an empty list",
    ],
    [
      "askUserTool",
      "askUserTool: {}",
      "mm.yaml:1:14: askUserTool: expected true or false, found an empty mapping",
    ],
    [
      "saveAnswerTool",
      "saveAnswerTool: True!",
      'mm.yaml:1:17: saveAnswerTool: expected true or false, found "True!"',
    ],
    [
      "unloadModels",
      "unloadModels: null",
      "mm.yaml:1:15: unloadModels: expected true or false, found null",
    ],
    // durations
    [
      "bashTimeout a bare number",
      "bashTimeout: 30",
      "mm.yaml:1:14: bashTimeout: expected a duration like 30s, 2m or 1500ms, found the bare number 30 — write 30s",
    ],
    [
      "bashTimeout malformed",
      "bashTimeout: 30 seconds",
      'mm.yaml:1:14: bashTimeout: expected a duration like 30s, 2m or 1500ms, found "30 seconds"',
    ],
    [
      "bashTimeout zero",
      "bashTimeout: 0s",
      'mm.yaml:1:14: bashTimeout: expected a duration greater than 0, found "0s"',
    ],
    [
      "bashTimeout negative",
      "bashTimeout: -5s",
      'mm.yaml:1:14: bashTimeout: expected a duration like 30s, 2m or 1500ms, found "-5s"',
    ],
    [
      "watchdogTimeout a bare number",
      "watchdogTimeout: 120",
      "mm.yaml:1:18: watchdogTimeout: expected a duration like 30s, 2m or 1500ms, found the bare number 120 — write 120s",
    ],
    [
      "bashTimeout a negative bare number",
      "bashTimeout: -5",
      "mm.yaml:1:14: bashTimeout: expected a duration like 30s, 2m or 1500ms, found the bare number -5",
    ],
    [
      "watchdogTimeout a day",
      "watchdogTimeout: 1d",
      'mm.yaml:1:18: watchdogTimeout: expected a duration like 30s, 2m or 1500ms, found "1d"',
    ],
    // structuredOutput
    [
      "structuredOutput a string",
      "structuredOutput: json",
      'mm.yaml:1:19: structuredOutput: expected a mapping (a JSON Schema), found "json"',
    ],
    [
      "outputSchema a string",
      "outputSchema: json",
      'mm.yaml:1:15: outputSchema: expected a mapping (a JSON Schema), found "json"',
    ],
    [
      "outputSchema and structuredOutput both",
      "outputSchema: {type: object}\nstructuredOutput: {type: object}",
      "mm.yaml:2:1: structuredOutput: expected only one of outputSchema and structuredOutput (its old name), found both (outputSchema is on line 1)",
    ],
    // lsp
    ["lsp a list", "lsp: [a]", "mm.yaml:1:6: lsp: expected a mapping, found a list"],
    [
      "lsp.servers a mapping",
      "lsp:\n  servers: {a: 1}",
      "mm.yaml:2:12: lsp.servers: expected a list, found a mapping",
    ],
    [
      "lsp.servers item a string",
      "lsp:\n  servers:\n    - deno lsp",
      'mm.yaml:3:7: lsp.servers[0]: expected a mapping, found "deno lsp"',
    ],
    [
      "lsp server command as an argv",
      "lsp:\n  servers:\n    - name: deno\n      command: [deno, lsp]",
      "mm.yaml:4:16: lsp.servers[0].command: expected a program name (its arguments go in args), found a list",
    ],
    [
      "lsp server without command",
      "lsp:\n  servers:\n    - name: deno",
      'mm.yaml:3:7: lsp.servers[0].command: expected a program name, found no "command" key',
    ],
    [
      "lsp server without name",
      "lsp:\n  servers:\n    - command: deno",
      'mm.yaml:3:7: lsp.servers[0].name: expected a string, found no "name" key',
    ],
    [
      "lsp server args a string",
      "lsp:\n  servers:\n    - name: deno\n      command: deno\n      args: lsp",
      'mm.yaml:5:13: lsp.servers[0].args: expected a list of strings, found "lsp"',
    ],
    [
      "lsp server extensions item a number",
      "lsp:\n  servers:\n    - name: x\n      command: x\n      extensions: [.ts, 3]",
      "mm.yaml:5:25: lsp.servers[0].extensions[1]: expected a string, found 3",
    ],
    [
      "lsp server names twice",
      "lsp:\n  servers:\n    - {name: a, command: a}\n    - {name: a, command: b}",
      'mm.yaml:4:14: lsp.servers[1].name: expected a name no other server has, found "a"',
    ],
    // mmConfigs
    [
      "mmConfigs a list",
      "mmConfigs: [a]",
      "mm.yaml:1:12: mmConfigs: expected a mapping, found a list",
    ],
    [
      "mmConfigs entry a string",
      "mmConfigs:\n  helper: helper.yaml",
      'mm.yaml:2:11: mmConfigs.helper: expected a mapping, found "helper.yaml"',
    ],
    [
      "mmConfigs entry without file",
      "mmConfigs:\n  helper:\n    description: helps",
      'mm.yaml:3:5: mmConfigs.helper.file: expected the path of an agent file, found no "file" key',
    ],
    [
      "mmConfigs file a number",
      "mmConfigs:\n  helper:\n    file: 3",
      "mm.yaml:3:11: mmConfigs.helper.file: expected a non-empty string, found 3",
    ],
    [
      "mmConfigs yolo a string",
      "mmConfigs:\n  helper:\n    file: h.yaml\n    yolo: nope",
      'mm.yaml:4:11: mmConfigs.helper.yolo: expected true or false, found "nope"',
    ],
    [
      "mmConfigs description a list",
      "mmConfigs:\n  helper:\n    file: h.yaml\n    description: [a]",
      "mm.yaml:4:18: mmConfigs.helper.description: expected a string, found a list",
    ],
    // sessions
    [
      "sessions a boolean",
      "sessions: true",
      "mm.yaml:1:11: sessions: expected a mapping, found true",
    ],
    [
      "sessions.enabled",
      "sessions:\n  enabled: yes",
      'mm.yaml:2:12: sessions.enabled: expected true or false, found "yes"',
    ],
    [
      "sessions.dir",
      "sessions:\n  dir: 3",
      "mm.yaml:2:8: sessions.dir: expected a non-empty string, found 3",
    ],
    [
      "sessions.autoSearchMemory",
      "sessions:\n  autoSearchMemory: 1",
      "mm.yaml:2:21: sessions.autoSearchMemory: expected true or false, found 1",
    ],
    [
      "sessions.searchMemory",
      "sessions:\n  searchMemory: on",
      'mm.yaml:2:17: sessions.searchMemory: expected true or false, found "on"',
    ],
    // hooks
    ["hooks a list", "hooks: []", "mm.yaml:1:8: hooks: expected a mapping, found an empty list"],
    [
      "hooks event a mapping",
      "hooks:\n  preToolCall: {command: [x]}",
      "mm.yaml:2:16: hooks.preToolCall: expected a list, found a mapping",
    ],
    [
      "hook command a string",
      "hooks:\n  preToolCall:\n    - command: ./guard.sh --strict",
      'mm.yaml:3:16: hooks.preToolCall[0].command: expected a command as a list of strings, like ["make", "test"], found "./guard.sh --strict"',
    ],
    [
      "hook command empty",
      "hooks:\n  preToolCall:\n    - command: []",
      'mm.yaml:3:16: hooks.preToolCall[0].command: expected a command as a list of strings, like ["make", "test"], found an empty list',
    ],
    [
      "hook command item a number",
      "hooks:\n  postAsk:\n    - command: [x, 3]",
      "mm.yaml:3:20: hooks.postAsk[0].command[1]: expected a string, found 3",
    ],
    [
      "hook program empty",
      'hooks:\n  postAsk:\n    - command: ["", a]',
      'mm.yaml:3:17: hooks.postAsk[0].command[0]: expected a non-empty string, found ""',
    ],
    [
      "hook without command",
      "hooks:\n  preAsk:\n    - matcher: x",
      'mm.yaml:3:7: hooks.preAsk[0].command: expected a command as a list of strings, like ["make", "test"], found no "command" key',
    ],
    [
      "hook timeout a bare number",
      "hooks:\n  preToolCall:\n    - command: [x]\n      timeout: 5",
      "mm.yaml:4:16: hooks.preToolCall[0].timeout: expected a duration like 30s, 2m or 1500ms, found the bare number 5 — write 5s",
    ],
    [
      "hook matcher not a regular expression",
      "hooks:\n  preToolCall:\n    - matcher: (bash\n      command: [x]",
      'mm.yaml:3:16: hooks.preToolCall[0].matcher: expected a tool name or a regular expression, found "(bash" (Invalid regular expression: /(bash/: Unterminated group)',
    ],
    [
      "hook matcher a number",
      "hooks:\n  preToolCall:\n    - matcher: 3\n      command: [x]",
      "mm.yaml:3:16: hooks.preToolCall[0].matcher: expected a non-empty string, found 3",
    ],
    // tools
    ["tools a mapping", "tools:\n  a: 1", "mm.yaml:2:3: tools: expected a list, found a mapping"],
    [
      "tool named like a built-in",
      "tools:\n  - name: bash\n    command: [x]",
      'mm.yaml:2:11: tools[0].name: expected a name that no built-in tool has, found "bash"',
    ],
    [
      "tool named like another built-in",
      "tools:\n  - name: search_memory\n    command: [x]",
      'mm.yaml:2:11: tools[0].name: expected a name that no built-in tool has, found "search_memory"',
    ],
    [
      "tool name with a space",
      "tools:\n  - name: run tests\n    command: [x]",
      'mm.yaml:2:11: tools[0].name: expected a name of letters, digits, _ and - (at most 64 characters), found "run tests"',
    ],
    [
      "tool names twice",
      "tools:\n  - {name: t, command: [x]}\n  - {name: t, command: [y]}",
      'mm.yaml:3:12: tools[1].name: expected a name no other declared tool has, found "t"',
    ],
    [
      "tool without name",
      "tools:\n  - command: [x]",
      'mm.yaml:2:5: tools[0].name: expected a tool name, found no "name" key',
    ],
    [
      "tool without command",
      "tools:\n  - name: t",
      'mm.yaml:2:5: tools[0].command: expected a command as a list of strings, like ["make", "test"], found no "command" key',
    ],
    [
      "tool command a string",
      "tools:\n  - name: t\n    command: make test",
      'mm.yaml:3:14: tools[0].command: expected a command as a list of strings, like ["make", "test"], found "make test"',
    ],
    [
      "tool placeholder naming no parameter",
      "tools:\n  - name: t\n    command: [echo, '{{nn}}']\n    parameters:\n      n: {type: integer}",
      "mm.yaml:3:21: tools[0].command[1]: expected placeholders that name a parameter (n), found {{nn}} — did you mean {{n}}?",
    ],
    [
      "tool placeholder with spaces",
      "tools:\n  - name: t\n    command: [echo, 'x={{ n }}']\n    parameters:\n      n: {}",
      "mm.yaml:3:21: tools[0].command[1]: expected placeholders that name a parameter (n), found {{ n }} — did you mean {{n}}?",
    ],
    [
      "tool placeholder and no parameters",
      "tools:\n  - name: t\n    command: [echo, '{{x}}']",
      "mm.yaml:3:21: tools[0].command[1]: expected no placeholder (the tool has no parameters), found {{x}}",
    ],
    [
      "tool description a number",
      "tools:\n  - name: t\n    description: 3\n    command: [x]",
      "mm.yaml:3:18: tools[0].description: expected a string, found 3",
    ],
    [
      "tool timeout malformed",
      "tools:\n  - name: t\n    command: [x]\n    timeout: 2 min",
      'mm.yaml:4:14: tools[0].timeout: expected a duration like 30s, 2m or 1500ms, found "2 min"',
    ],
    [
      "tool parameters a list",
      "tools:\n  - name: t\n    command: [x]\n    parameters: [a]",
      "mm.yaml:4:17: tools[0].parameters: expected a mapping, found a list",
    ],
    [
      "tool parameter name with a dot",
      "tools:\n  - name: t\n    command: [x]\n    parameters:\n      a.b: {}",
      'mm.yaml:5:7: tools[0].parameters.a.b: expected a parameter name of letters, digits, _ and - (at most 64 characters), found "a.b"',
    ],
    [
      "tool parameter a string",
      "tools:\n  - name: t\n    command: [x]\n    parameters:\n      n: integer",
      'mm.yaml:5:10: tools[0].parameters.n: expected a mapping, found "integer"',
    ],
    [
      "tool parameter type unknown",
      "tools:\n  - name: t\n    command: [x]\n    parameters:\n      n: {type: int}",
      'mm.yaml:5:17: tools[0].parameters.n.type: expected one of string, number, integer, boolean, found "int"',
    ],
    [
      "tool parameter type misspelt",
      "tools:\n  - name: t\n    command: [x]\n    parameters:\n      n: {type: strng}",
      'mm.yaml:5:17: tools[0].parameters.n.type: expected one of string, number, integer, boolean, found "strng" — did you mean "string"?',
    ],
    [
      "tool parameter enum empty",
      "tools:\n  - name: t\n    command: [x]\n    parameters:\n      n: {enum: []}",
      "mm.yaml:5:17: tools[0].parameters.n.enum: expected a non-empty list of values, found an empty list",
    ],
    [
      "tool parameter enum of the wrong type",
      "tools:\n  - name: t\n    command: [x]\n    parameters:\n      n: {type: integer, enum: [1, two]}",
      'mm.yaml:5:36: tools[0].parameters.n.enum[1]: expected an integer, found "two"',
    ],
    [
      "tool parameter enum of strings with a number",
      "tools:\n  - name: t\n    command: [x]\n    parameters:\n      n: {enum: [a, 1]}",
      "mm.yaml:5:21: tools[0].parameters.n.enum[1]: expected a string, found 1",
    ],
    [
      "tool parameter default of the wrong type",
      "tools:\n  - name: t\n    command: [x]\n    parameters:\n      n: {type: boolean, default: yes}",
      'mm.yaml:5:35: tools[0].parameters.n.default: expected true or false, found "yes"',
    ],
    [
      "tool parameter default a fraction for an integer",
      "tools:\n  - name: t\n    command: [x]\n    parameters:\n      n: {type: integer, default: 1.5}",
      "mm.yaml:5:35: tools[0].parameters.n.default: expected an integer, found 1.5",
    ],
    [
      "tool parameter default a string for a number",
      "tools:\n  - name: t\n    command: [x]\n    parameters:\n      n: {type: number, default: '1'}",
      'mm.yaml:5:34: tools[0].parameters.n.default: expected a number, found "1"',
    ],
    [
      "tool parameter default outside its enum",
      "tools:\n  - name: t\n    command: [x]\n    parameters:\n      n: {type: integer, enum: [1, 2], default: 3}",
      "mm.yaml:5:49: tools[0].parameters.n.default: expected one of 1, 2, found 3",
    ],
    [
      "tool parameter optional a string",
      "tools:\n  - name: t\n    command: [x]\n    parameters:\n      n: {optional: maybe}",
      'mm.yaml:5:21: tools[0].parameters.n.optional: expected true or false, found "maybe"',
    ],
    // acp
    ["acp a string", "acp: mm", 'mm.yaml:1:6: acp: expected a mapping, found "mm"'],
    [
      "acp.title a number",
      "acp:\n  title: 3",
      "mm.yaml:2:10: acp.title: expected a non-empty string, found 3",
    ],
    // notify
    [
      "notify misspelt",
      "notify: bel",
      'mm.yaml:1:9: notify: expected one of bell, off, found "bel" — did you mean "bell"?',
    ],
    [
      "notify a boolean",
      "notify: false",
      "mm.yaml:1:9: notify: expected a string, found false",
    ],
    // sandbox, sandboxNetwork
    [
      "sandbox misspelt",
      "sandbox: workspce",
      'mm.yaml:1:10: sandbox: expected one of off, workspace, readonly, found "workspce" — did you mean "workspace"?',
    ],
    [
      "sandbox read-only",
      "sandbox: read-only",
      'mm.yaml:1:10: sandbox: expected one of off, workspace, readonly, found "read-only" — did you mean "readonly"?',
    ],
    [
      "sandbox unknown",
      "sandbox: docker",
      'mm.yaml:1:10: sandbox: expected one of off, workspace, readonly, found "docker"',
    ],
    [
      "sandbox a boolean",
      "sandbox: true",
      "mm.yaml:1:10: sandbox: expected one of off, workspace, readonly, found true",
    ],
    [
      "sandboxNetwork a word",
      "sandboxNetwork: off",
      'mm.yaml:1:17: sandboxNetwork: expected true or false, found "off"',
    ],
    // YAML itself
    [
      "an alias to no anchor",
      "yolo: *nope",
      "mm.yaml:1:7: yolo: expected a value, found an alias to an unknown anchor",
    ],
    ["an unknown tag", "yolo: !bool false", "mm.yaml:1:7: invalid YAML: Unresolved tag: !bool"],
  ];
  for (const [name, yaml, message] of rows) {
    await t.step(name, () => assertEquals(fault(yaml), message));
  }
  await t.step("a long string is cut in the message", () => {
    assertEquals(
      fault(`yolo: ${"x".repeat(100)}`),
      `mm.yaml:1:7: yolo: expected true or false, found "${"x".repeat(57)}…"`,
    );
  });
  await t.step("a multi-line string stays on one line", () => {
    assertEquals(
      fault("yolo: |\n  a\n  b\n"),
      'mm.yaml:1:7: yolo: expected true or false, found "a\\nb\\n"',
    );
  });
  await t.step("the first fault in file order wins", () => {
    assertEquals(
      fault("yolo: nope\nyollo: false\nmaxTurns: 0"),
      'mm.yaml:1:7: yolo: expected true or false, found "nope"',
    );
    assertEquals(
      fault("yollo: false\nyolo: nope"),
      'mm.yaml:1:1: unknown key "yollo" — did you mean "yolo"?',
    );
  });
});

Deno.test("parseConfig: unknown keys", async (t) => {
  const rows: [string, string, string][] = [
    ["yollo", "model: m\nyollo: false", 'mm.yaml:2:1: unknown key "yollo" — did you mean "yolo"?'],
    ["yolo_", "yolo_: false", 'mm.yaml:1:1: unknown key "yolo_" — did you mean "yolo"?'],
    [
      "Yolo (keys are case-sensitive)",
      "Yolo: false",
      'mm.yaml:1:1: unknown key "Yolo" — did you mean "yolo"?',
    ],
    ["YOLO", "YOLO: false", 'mm.yaml:1:1: unknown key "YOLO" — did you mean "yolo"?'],
    [
      "quoted with a space",
      '"yolo ": false',
      'mm.yaml:1:1: unknown key "yolo " — did you mean "yolo"?',
    ],
    [
      "bash_timeout",
      "bash_timeout: 5s",
      'mm.yaml:1:1: unknown key "bash_timeout" — did you mean "bashTimeout"?',
    ],
    [
      "edit-tools",
      "edit-tools: false",
      'mm.yaml:1:1: unknown key "edit-tools" — did you mean "editTools"?',
    ],
    [
      "temprature",
      "temprature: 0.2",
      'mm.yaml:1:1: unknown key "temprature" — did you mean "temperature"?',
    ],
    [
      "nothing near at the top",
      "colour: red",
      `mm.yaml:1:1: unknown key "colour" — known keys: ${TOP_KEYS}`,
    ],
    [
      "sessions.enabeld",
      "sessions:\n  enabeld: true",
      'mm.yaml:2:3: unknown key "sessions.enabeld" — did you mean "sessions.enabled"?',
    ],
    [
      "nothing near in sessions",
      "sessions:\n  path: x",
      'mm.yaml:2:3: unknown key "sessions.path" — known keys of sessions: enabled, dir, keep, autoSearchMemory, searchMemory',
    ],
    [
      "lsp.server",
      "lsp:\n  server: []",
      'mm.yaml:2:3: unknown key "lsp.server" — did you mean "lsp.servers"?',
    ],
    [
      "lsp.servers[0].arg",
      "lsp:\n  servers:\n    - name: a\n      command: a\n      arg: [x]",
      'mm.yaml:5:7: unknown key "lsp.servers[0].arg" — did you mean "lsp.servers[0].args"?',
    ],
    [
      "mmConfigs.helper.yollo",
      "mmConfigs:\n  helper:\n    file: h.yaml\n    yollo: false",
      'mm.yaml:4:5: unknown key "mmConfigs.helper.yollo" — did you mean "mmConfigs.helper.yolo"?',
    ],
    [
      "hooks.preToolcall",
      "hooks:\n  preToolcall: []",
      'mm.yaml:2:3: unknown key "hooks.preToolcall" — did you mean "hooks.preToolCall"?',
    ],
    [
      "hooks.onStart",
      "hooks:\n  onStart: []",
      'mm.yaml:2:3: unknown key "hooks.onStart" — known keys of hooks: preGeneration, preToolCall, postToolCall, preAsk, postAsk',
    ],
    [
      "hooks.preToolCall[0].timout",
      "hooks:\n  preToolCall:\n    - command: [x]\n      timout: 5s",
      'mm.yaml:4:7: unknown key "hooks.preToolCall[0].timout" — did you mean "hooks.preToolCall[0].timeout"?',
    ],
    [
      "tools[0].params",
      "tools:\n  - name: t\n    command: [x]\n    params: {}",
      'mm.yaml:4:5: unknown key "tools[0].params" — known keys of tools[0]: name, description, command, parameters, timeout',
    ],
    [
      "tools[1].parameters.n.typ",
      "tools:\n  - {name: a, command: [a]}\n  - name: t\n    command: [x]\n    parameters:\n      n: {typ: string}",
      'mm.yaml:6:11: unknown key "tools[1].parameters.n.typ" — did you mean "tools[1].parameters.n.type"?',
    ],
    [
      "tools[0].parameters.n.required",
      "tools:\n  - name: t\n    command: [x]\n    parameters:\n      n: {required: true}",
      'mm.yaml:5:11: unknown key "tools[0].parameters.n.required" — known keys of tools[0].parameters.n: type, description, enum, default, optional, allowDash',
    ],
    [
      "window.mice",
      "window:\n  mice: false",
      'mm.yaml:2:3: unknown key "window.mice" — known keys of window: mouse',
    ],
    [
      "acp.titel",
      "acp:\n  titel: x",
      'mm.yaml:2:3: unknown key "acp.titel" — did you mean "acp.title"?',
    ],
    [
      "a merge key (not YAML 1.2)",
      "<<: {yolo: false}",
      `mm.yaml:1:1: unknown key "<<" — known keys: ${TOP_KEYS}`,
    ],
  ];
  for (const [name, yaml, message] of rows) {
    await t.step(name, () => assertEquals(fault(yaml), message));
  }
});

Deno.test("parseConfig: a path key's leading ~ is the home directory", () => {
  const env = { HOME: "/home/ann/" };
  const config = parse(
    "skillsDir: ~/skills\nsessions:\n  dir: ~/sess\nmmConfigs:\n  a:\n    file: ~/agents/a.yaml\n",
    env,
  );
  assertEquals(config.skillsDir, "/home/ann/skills");
  assertEquals(config.sessions.dir, "/home/ann/sess");
  assertEquals(config.mmConfigs.a.file, "/home/ann/agents/a.yaml");
  // A bare ~ is YAML's null: quoted, it is the home directory.
  assertEquals(parse('skillsDir: "~"\n', env).skillsDir, "/home/ann");
  // Only a leading ~ alone or before a slash; no home known, as written.
  assertEquals(parse("skillsDir: ~ann/x\n", env).skillsDir, "~ann/x");
  assertEquals(parse("skillsDir: a/~/x\n", env).skillsDir, "a/~/x");
  assertEquals(
    parse("skillsDir: ~/x\n", { USERPROFILE: "C:\\Users\\ann" }).skillsDir,
    "C:\\Users\\ann/x",
  );
  assertEquals(parse("skillsDir: ~/x\n").skillsDir, "~/x");
  // system is text, not a path.
  assertEquals(parse("system: ~/not a path\n", env).system, "~/not a path");
});

Deno.test("parseConfig: a bare ~ is YAML's null, and the fault says how to write home", () => {
  assertEquals(
    fault("sessions:\n  dir: ~\n"),
    `mm.yaml:2:8: sessions.dir: expected a non-empty string, found null (a bare ~ is YAML's null: write "~" or ~/… for the home directory)`,
  );
});

/** The agent file's `permissions` key (lib/config/schema.ts): rules accepted, faults at their place. */

import { assertEquals } from "../helpers/assert.ts";
import { fault, parse } from "../helpers/config.ts";

Deno.test("permissions: rules accepted", async (t) => {
  await t.step("the three lists, as written", () => {
    const c = parse(
      [
        "permissions:",
        "  allow: [bash(git status*), write_file(src/**), 'edit_file(**/*.ts)']",
        "  ask: [bash(rm *)]",
        "  deny: ['read_file(~/.ssh/**)', fetch_content(*.example.com), mcp(fs_*), ask_user]",
      ].join("\n"),
    );
    assertEquals(c.permissions, {
      allow: ["bash(git status*)", "write_file(src/**)", "edit_file(**/*.ts)"],
      ask: ["bash(rm *)"],
      deny: ["read_file(~/.ssh/**)", "fetch_content(*.example.com)", "mcp(fs_*)", "ask_user"],
    });
  });
  await t.step("none by default; an empty list", () => {
    assertEquals(parse("yolo: true").permissions, { allow: [], ask: [], deny: [] });
    assertEquals(parse("permissions:\n  deny:").permissions, { allow: [], ask: [], deny: [] });
  });
  await t.step("a declared tool, a declared tool after the rules, an MCP server's tool", () => {
    const c = parse(
      [
        "permissions: {deny: [lint, gh_create_issue]}",
        "tools: [{name: lint, command: [make, lint]}]",
        "mcpServers: {gh: {command: gh-mcp}}",
      ].join("\n"),
    );
    assertEquals(c.permissions.deny, ["lint", "gh_create_issue"]);
  });
});

Deno.test("permissions: faults at file:line:column", async (t) => {
  const rows: [string, string, string][] = [
    [
      "a rule that does not parse",
      "permissions:\n  allow: [bash(git status]",
      'mm.yaml:2:11: permissions.allow[0]: expected a rule like bash(git status*), write_file(src/**) or a tool name, found "bash(git status"',
    ],
    [
      "an empty pattern",
      "permissions:\n  deny:\n    - bash()",
      'mm.yaml:3:7: permissions.deny[0]: expected a rule like bash(git status*), write_file(src/**) or a tool name, found "bash()"',
    ],
    [
      "an unknown tool, with the nearest",
      "permissions:\n  deny: [Bash(rm *)]",
      'mm.yaml:2:10: permissions.deny[0]: expected a rule on a tool mm knows (a built-in, a declared tool, mcp(…) or an MCP server\'s tool), found "Bash(rm *)" — did you mean "bash(rm *)"?',
    ],
    [
      "an unknown tool, nothing near",
      "permissions:\n  ask: [frobnicate]",
      'mm.yaml:2:9: permissions.ask[0]: expected a rule on a tool mm knows (a built-in, a declared tool, mcp(…) or an MCP server\'s tool), found "frobnicate"',
    ],
    [
      "an MCP tool of no server",
      "permissions:\n  ask: [gh_create]",
      'mm.yaml:2:9: permissions.ask[0]: expected a rule on a tool mm knows (a built-in, a declared tool, mcp(…) or an MCP server\'s tool), found "gh_create"',
    ],
    [
      "a pattern on a tool that takes none",
      "permissions:\n  allow: [ask_user(x)]",
      'mm.yaml:2:11: permissions.allow[0]: expected a bare tool name: ask_user takes no pattern (bash, read_file, write_file, edit_file, save_answer, lsp, fetch_content and mcp do), found "ask_user(x)"',
    ],
    [
      "a list that is not one",
      "permissions:\n  allow: bash(ls)",
      'mm.yaml:2:10: permissions.allow: expected a list, found "bash(ls)"',
    ],
    [
      "not a mapping",
      "permissions: [bash]",
      "mm.yaml:1:14: permissions: expected a mapping, found a list",
    ],
    [
      "an unknown list",
      "permissions:\n  alow: [bash]",
      'mm.yaml:2:3: unknown key "permissions.alow" — did you mean "permissions.allow"?',
    ],
    [
      "a rule that is not a string",
      "permissions:\n  allow: [3]",
      "mm.yaml:2:11: permissions.allow[0]: expected a non-empty string, found 3",
    ],
  ];
  for (const [name, text, want] of rows) {
    await t.step(name, () => assertEquals(fault(text), want));
  }
});

/** mm doctor's permission rules (lib/commands/doctor.ts, ruleLines): the rules in force, and warnings. */

import { ruleLines } from "../../lib/commands/doctor.ts";
import { defaultConfig } from "../../lib/config/config.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("ruleLines: the rules in force, strongest first, a rule that can never match warned of", () => {
  assertEquals(ruleLines(defaultConfig()), [
    "✔ permission rules: none (yolo: true decides the rest)",
  ]);
  const config = {
    ...defaultConfig(),
    yolo: false,
    permissions: {
      allow: ["bash(git status*)", "fetch_content(*.example.com)"],
      ask: [],
      deny: ["bash(rm *)", "read_file(~/.ssh/**)"],
    },
  };
  assertEquals(ruleLines(config, "/h"), [
    "✔ permission rules: 4 (yolo: false decides the rest)",
    "    deny: bash(rm *)",
    "    deny: read_file(~/.ssh/**)",
    "    allow: bash(git status*)",
    "    allow: fetch_content(*.example.com)",
    "    [warning: allow: fetch_content(*.example.com) can never match: fetch_content is not declared by this agent file]",
  ]);
});

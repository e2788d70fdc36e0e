/** The permission rules (lib/permissions/rules.ts): reading, matching, deciding, their texts. */

import { assertEquals } from "../helpers/assert.ts";
import {
  alwaysRule,
  askRuleRejectedText,
  bashSubject,
  type CallSubject,
  decide,
  deniedText,
  hostOf,
  neverMatches,
  parseRule,
  type Rule,
  type RuleList,
  ruleMatches,
  rulesOf,
  sessionRuleText,
} from "../../lib/permissions/rules.ts";

const places = { cwd: "/p", home: "/h" };

function rule(list: RuleList, text: string): Rule {
  const parsed = parseRule(text);
  if (!parsed.ok) throw new Error(`bad rule ${text}`);
  return { list, ...parsed.rule, text };
}

const path = (tool: string, ...paths: (string | [string, string])[]): CallSubject => ({
  tool,
  paths: paths.map((p) =>
    typeof p === "string" ? { given: p, real: p } : { given: p[0], real: p[1] }
  ),
});

Deno.test("parseRule: a tool, or a tool and its pattern", async (t) => {
  const table: [string, ReturnType<typeof parseRule>][] = [
    ["bash", { ok: true, rule: { tool: "bash" } }],
    ["bash(git status*)", { ok: true, rule: { tool: "bash", pattern: "git status*" } }],
    [" write_file( src/** ) ", { ok: true, rule: { tool: "write_file", pattern: "src/**" } }],
    ["bash(echo (a))", { ok: true, rule: { tool: "bash", pattern: "echo (a)" } }],
    ["bash()", { ok: false }],
    ["bash(", { ok: false }],
    ["(x)", { ok: false }],
    ["two words", { ok: false }],
    ["", { ok: false }],
  ];
  for (const [text, want] of table) {
    await t.step(JSON.stringify(text), () => assertEquals(parseRule(text), want));
  }
});

Deno.test("ruleMatches: what of a call a rule matches", async (t) => {
  const table: [RuleList, string, CallSubject, boolean][] = [
    ["allow", "bash", bashSubject("anything; at all"), true],
    ["allow", "bash(git status*)", bashSubject("git status"), true],
    ["allow", "bash(git status*)", bashSubject("git status -s"), true],
    ["allow", "bash(git status*)", bashSubject("git  status"), true],
    ["allow", "bash(git status*)", bashSubject("git status; rm -rf x"), false],
    ["allow", "bash(git status*)", bashSubject("git status && git status"), true],
    ["allow", "bash(git status*)", bashSubject("git status $(rm -rf x)"), false],
    ["allow", "bash(git status*)", bashSubject("git status 'open"), false],
    ["allow", "bash(git status*)", bashSubject("FOO=1 git status"), false],
    ["allow", "bash(git status*)", bashSubject(""), false],
    ["deny", "bash(rm *)", bashSubject("ls; rm -rf x"), true],
    ["deny", "bash(rm *)", bashSubject("echo $(rm -rf x)"), true],
    ["deny", "bash(rm *)", bashSubject('echo "`rm -rf x`"'), true],
    ["deny", "bash(rm *)", bashSubject("FOO=1 rm x"), true],
    ["deny", "bash(rm *)", bashSubject("if true; then rm x; fi"), true],
    ["deny", "bash(rm *)", bashSubject("echo 'rm x'"), false],
    ["deny", "bash(rm *)", bashSubject("rmdir x"), false],
    ["ask", "bash(rm *)", bashSubject("ls | rm x"), true],
    ["deny", "bash(rm *)", { tool: "read_file", paths: [] }, false],
    ["allow", "write_file(src/**)", path("write_file", "/p/src/a.ts"), true],
    ["allow", "write_file(src/**)", path("write_file", "/p/src/a/b/c.ts"), true],
    ["allow", "write_file(src/**)", path("write_file", "/p/lib/a.ts"), false],
    ["allow", "write_file(src/**)", path("write_file", ["/p/src/l", "/etc/passwd"]), false],
    ["deny", "write_file(src/**)", path("write_file", ["/p/l", "/p/src/x"]), true],
    ["allow", "edit_file(**/*.ts)", path("edit_file", "/p/a.ts"), true],
    ["allow", "edit_file(**/*.ts)", path("edit_file", "/p/x/y/a.ts"), true],
    ["allow", "edit_file(**/*.ts)", path("edit_file", "/p/x/a.tsx"), false],
    ["allow", "edit_file(*.ts)", path("edit_file", "/p/x/a.ts"), false],
    ["allow", "edit_file(?.ts)", path("edit_file", "/p/a.ts"), true],
    ["deny", "read_file(~/.ssh/**)", path("read_file", "/h/.ssh/id_rsa"), true],
    ["deny", "read_file(~/.ssh/**)", path("read_file", ["/p/key", "/h/.ssh/id_rsa"]), true],
    ["deny", "read_file(~/.ssh/**)", path("read_file", "/h/.sshx/a"), false],
    ["deny", "read_file(/etc/*)", path("read_file", "/etc/passwd"), true],
    ["deny", "read_file(/etc/*)", path("read_file", "/etc/ssl/a"), false],
    ["ask", "read_file(a.txt)", path("read_file", "/p/a.txt"), true],
    ["ask", "read_file(a.txt)", path("write_file", "/p/a.txt"), false],
    [
      "allow",
      "fetch_content(*.example.com)",
      { tool: "fetch_content", host: "a.example.com" },
      true,
    ],
    [
      "allow",
      "fetch_content(*.example.com)",
      { tool: "fetch_content", host: "example.com" },
      false,
    ],
    [
      "allow",
      "fetch_content(*.Example.com)",
      { tool: "fetch_content", host: "a.b.example.com" },
      true,
    ],
    [
      "allow",
      "fetch_content(*.example.com)",
      { tool: "fetch_content", host: "example.com.evil" },
      false,
    ],
    ["allow", "fetch_content(127.0.0.1)", { tool: "fetch_content", host: "127.0.0.1" }, true],
    ["allow", "mcp(fs_*)", { tool: "fs_read", mcp: "fs_read" }, true],
    ["allow", "mcp(fs_*)", { tool: "mcp_call", mcp: "fs_read" }, true],
    ["allow", "mcp(fs_*)", { tool: "gh_read", mcp: "gh_read" }, false],
    ["allow", "mcp", { tool: "gh_read", mcp: "gh_read" }, true],
    ["allow", "mcp", { tool: "bash" }, false],
    ["allow", "fs_read", { tool: "mcp_call", mcp: "fs_read" }, true],
    ["deny", "ask_user", { tool: "ask_user" }, true],
  ];
  for (const [list, text, call, want] of table) {
    await t.step(`${list}: ${text} — ${JSON.stringify(call)}`, () => {
      assertEquals(ruleMatches(rule(list, text), call, places), want);
    });
  }
  await t.step("no home: a ~/ rule matches nothing", () => {
    const r = rule("deny", "read_file(~/.ssh/**)");
    assertEquals(ruleMatches(r, path("read_file", "/h/.ssh/a"), { cwd: "/p" }), false);
  });
});

Deno.test("decide: deny > ask > allow, an ask answered always passed over", async (t) => {
  const rules = rulesOf({
    allow: ["bash(git *)", "bash(rm x)"],
    ask: ["bash(git push*)"],
    deny: ["bash(rm *)"],
  });
  const table: [string, string | undefined, Set<string>?][] = [
    ["git status", "allow: bash(git *)"],
    ["git push", "ask: bash(git push*)"],
    ["git push", "allow: bash(git *)", new Set(["bash(git push*)"])],
    ["rm x", "deny: bash(rm *)"],
    ["git push; rm x", "deny: bash(rm *)"],
    ["ls", undefined],
  ];
  for (const [command, want, lifted] of table) {
    await t.step(command, () => {
      const d = decide(rules, bashSubject(command), places, lifted);
      assertEquals(d && `${d.kind}: ${d.rule.text}`, want);
    });
  }
  await t.step("rulesOf orders the lists deny, ask, allow", () => {
    assertEquals(rules.map((r) => r.list), ["deny", "ask", "allow", "allow"]);
  });
});

Deno.test("alwaysRule: the session's rule of an always", async (t) => {
  const asked = rule("ask", "bash(rm *)");
  const table: [CallSubject, Parameters<typeof alwaysRule>[1], string][] = [
    [bashSubject("rm x"), { rule: asked }, "bash(rm *)"],
    [bashSubject("ls"), {}, "bash"],
    [{ tool: "fetch_content", host: "example.com" }, {}, "fetch_content(example.com)"],
    [path("read_file", "/etc/passwd"), { outside: ["/etc"] }, "read_file(/etc/**)"],
    [{ tool: "mcp_call", mcp: "fs_write" }, {}, "mcp(fs_write)"],
    [{ tool: "write_file", paths: [] }, {}, "write_file"],
  ];
  for (const [call, why, want] of table) {
    await t.step(want, () => {
      const r = alwaysRule(call, why);
      assertEquals([r.text, r.list, r.session], [want, why.rule ? "ask" : "allow", true]);
    });
  }
});

Deno.test("hostOf: the host of an http(s) URL", () => {
  assertEquals(hostOf("https://A.Example.com:8080/x"), "a.example.com");
  assertEquals(hostOf("http://[::1]/"), "::1");
  assertEquals(hostOf("ftp://x/"), undefined);
  assertEquals(hostOf("not a url"), undefined);
});

Deno.test("the rules' texts", () => {
  const deny = rule("deny", "bash(rm *)");
  assertEquals(
    deniedText("bash", deny),
    '[command denied by the permission rule "deny: bash(rm *)" — it will be denied every time; do not call it again]',
  );
  assertEquals(
    deniedText("read_file", rule("deny", "read_file(~/.ssh/**)")),
    '[read_file denied by the permission rule "deny: read_file(~/.ssh/**)" — it will be denied every time; do not call it again]',
  );
  assertEquals(
    askRuleRejectedText("bash", rule("ask", "bash(rm *)")),
    '[command rejected: the permission rule "ask: bash(rm *)" asks the user, and nobody can be asked in this mode]',
  );
  assertEquals(
    sessionRuleText("fetch_content(example.com)"),
    "allowed for this session: fetch_content(example.com)",
  );
});

Deno.test("neverMatches: a rule that can never match, and why", async (t) => {
  const world = { declared: ["bash", "read_file", "write_file"], mcpServers: ["fs"], home: "/h" };
  const table: [string[], string, string | undefined][] = [
    [["allow: bash(git status*)"], "allow: bash(git status*)", undefined],
    [
      ["deny: fetch_content"],
      "deny: fetch_content",
      "fetch_content is not declared by this agent file",
    ],
    [
      ["deny: bash", "allow: bash(ls)"],
      "allow: bash(ls)",
      "deny: bash comes first for every call of bash",
    ],
    [
      ["ask: bash", "allow: bash(ls)"],
      "allow: bash(ls)",
      "ask: bash comes first for every call of bash",
    ],
    [["ask: bash", "deny: bash(rm *)"], "deny: bash(rm *)", undefined],
    [["deny: bash(rm *)", "allow: bash(ls)"], "allow: bash(ls)", undefined],
    [
      ["allow: bash(git status; ls)"],
      "allow: bash(git status; ls)",
      "a bash rule is matched against one command at a time; write one rule per command",
    ],
    [["allow: mcp(fs_*)"], "allow: mcp(fs_*)", undefined],
    [["allow: mcp(f*)"], "allow: mcp(f*)", undefined],
    [["allow: mcp"], "allow: mcp", undefined],
    [["allow: fs_read"], "allow: fs_read", undefined],
    [["allow: mcp(gh_*)"], "allow: mcp(gh_*)", "no MCP server's tools are named so (servers: fs)"],
  ];
  for (const [texts, which, want] of table) {
    await t.step(`${texts.join(", ")} — ${which}`, () => {
      const rules = texts.map((x) => {
        const [list, text] = x.split(": ");
        return rule(list as RuleList, text);
      });
      const r = rules.find((x) => `${x.list}: ${x.text}` === which)!;
      assertEquals(neverMatches(r, rules, world), want);
    });
  }
  await t.step("no MCP server; a host written as a URL; ~/ without a home", () => {
    const none = {
      ...world,
      mcpServers: [],
      declared: ["fetch_content", "read_file"],
      home: undefined,
    };
    assertEquals(neverMatches(rule("allow", "mcp"), [], none), "no MCP server is configured");
    assertEquals(
      neverMatches(rule("allow", "fetch_content(https://x.org/)"), [], none),
      "a fetch_content rule matches a host name (example.com, *.example.com), not a URL",
    );
    assertEquals(
      neverMatches(rule("deny", "read_file(~/.ssh/**)"), [], none),
      "~/ names no home directory here ($HOME is not set)",
    );
  });
});

import { assertEquals } from "../helpers/assert.ts";
import { fakeContext } from "../helpers/fake_context.ts";
import { type Config, defaultConfig } from "../../lib/config/config.ts";
import { toolLine } from "../../lib/frontend/terminal/display.ts";
import { EMPTY_QUERY_TEXT, noHitText } from "../../lib/session/search.ts";
import { saveSession, type SessionFile } from "../../lib/session/store.ts";
import { LIMIT_DESCRIPTION, QUERY_DESCRIPTION, searchMemory } from "../../tools/search_memory.ts";

function withSessions(sessions: Partial<Config["sessions"]>): Config {
  const c = defaultConfig();
  // The project's own folder: the tests below put their session files there.
  return { ...c, sessions: { ...c.sessions, dir: ".mm/sessions", ...sessions } };
}

function session(id: string, question: string, answer: string): SessionFile {
  return {
    id,
    created: "2026-05-01T08:00:00.000Z",
    updated: "2026-05-01T08:15:00.000Z",
    cwd: "/x",
    provider: "ollama",
    model: "m",
    messages: [
      { role: "user", content: question, turn: 1 },
      { role: "assistant", content: answer, turn: 1 },
    ],
    errors: [],
  };
}

Deno.test("search_memory", async (t) => {
  await t.step("declared when sessions.enabled and sessions.autoSearchMemory", () => {
    assertEquals(searchMemory.declared(defaultConfig()), false);
    assertEquals(searchMemory.declared(withSessions({ enabled: true })), false);
    // Sessions are on by default (issue 26): autoSearchMemory alone declares it.
    assertEquals(searchMemory.declared(withSessions({ autoSearchMemory: true })), true);
    assertEquals(
      searchMemory.declared(withSessions({ enabled: false, autoSearchMemory: true })),
      false,
    );
    assertEquals(
      searchMemory.declared(withSessions({ enabled: true, autoSearchMemory: true })),
      true,
    );
  });

  await t.step("fields: query, and an optional integer limit; kind search; never asks", () => {
    assertEquals(searchMemory.name, "search_memory");
    assertEquals(Object.keys(searchMemory.parameters), ["query", "limit"]);
    assertEquals(QUERY_DESCRIPTION, "The words to look for.");
    assertEquals(LIMIT_DESCRIPTION, "How many hits at most. 0 or absent: 10; capped at 50.");
    assertEquals(searchMemory.parameters.query.type, "string");
    assertEquals(searchMemory.parameters.query.optional, undefined);
    assertEquals(searchMemory.parameters.limit.type, "integer");
    assertEquals(searchMemory.parameters.limit.optional, true);
    assertEquals([searchMemory.kind, searchMemory.asks, searchMemory.emoji], [
      "search",
      false,
      "🔎",
    ]);
    assertEquals(searchMemory.counter, undefined);
  });

  await t.step('display: 🔎 search_memory: "<query>"', () => {
    assertEquals(searchMemory.summary({ query: "deploy preference" }), '"deploy preference"');
    assertEquals(
      toolLine(searchMemory.emoji, searchMemory.name, searchMemory.summary({ query: "x y" })),
      '🔎 search_memory: "x y"',
    );
  });

  await t.step("searches sessions.dir resolved against the working directory", async () => {
    const cwd = await Deno.makeTempDir({ prefix: "mm-search-tool-" });
    await saveSession(`${cwd}/.mm/sessions`, session("s1", "deploy préférence?", "Blue-green."));
    const ctx = fakeContext({ cwd, config: withSessions({ enabled: true }) });
    const result = await searchMemory.run({ query: "preference" }, ctx);
    assertEquals(result, {
      output: `🔎 1 hit(s) for "preference" in ${cwd}/.mm/sessions\n\n` +
        "s1 · 2026-05-01 08:15 · turn 1 · question\ndeploy préférence?\n→ Blue-green.",
    });
    const elsewhere = fakeContext({ cwd, config: withSessions({ dir: "other" }) });
    assertEquals(
      (await searchMemory.run({ query: "preference" }, elsewhere)).output,
      noHitText("preference", `${cwd}/other`),
    );
    await Deno.remove(cwd, { recursive: true });
  });

  await t.step("leaves out the conversation the call belongs to", async () => {
    const cwd = await Deno.makeTempDir({ prefix: "mm-search-tool-" });
    await saveSession(`${cwd}/.mm/sessions`, session("now", "where is the zebra?", "Here."));
    const ctx = fakeContext({ cwd, config: withSessions({}) });
    ctx.conversation = {
      history: [{ role: "system", content: "s" }, { role: "user", content: "where is the zebra?" }],
      callerText: "",
    };
    assertEquals(
      (await searchMemory.run({ query: "zebra" }, ctx)).output,
      noHitText("zebra", `${cwd}/.mm/sessions`),
    );
    await Deno.remove(cwd, { recursive: true });
  });

  await t.step("limit and maxOutput apply", async () => {
    const cwd = await Deno.makeTempDir({ prefix: "mm-search-tool-" });
    for (let i = 0; i < 4; i++) {
      await saveSession(`${cwd}/.mm/sessions`, session(`s${i}`, `zebra ${i}`, "ok"));
    }
    const ctx = fakeContext({ cwd, config: withSessions({}) });
    const two = await searchMemory.run({ query: "zebra", limit: 2 }, ctx);
    assertEquals(two.output.startsWith(`🔎 2 hit(s) for "zebra"`), true);
    const small = fakeContext({ cwd, config: { ...withSessions({}), maxOutput: 200 } });
    assertEquals((await searchMemory.run({ query: "zebra" }, small)).output.length <= 200, true);
    await Deno.remove(cwd, { recursive: true });
  });

  await t.step("an empty query fails with the spec's text", async () => {
    const result = await searchMemory.run({ query: " ... " }, fakeContext());
    assertEquals(result, { output: EMPTY_QUERY_TEXT, failed: true });
  });
});

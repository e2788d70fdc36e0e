import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { excerpt } from "../../lib/session/excerpt.ts";
import { queryWords, WordMatcher } from "../../lib/session/fold.ts";
import {
  cutHitsText,
  DEFAULT_LIMIT,
  EMPTY_QUERY_TEXT,
  findHits,
  hitDate,
  HOOK_CONTEXT_LINE,
  MAX_LIMIT,
  moreHitsText,
  NO_HIT_ADVICE,
  noHitText,
  searchSessions,
  sessionHits,
  skippedText,
  SUMMARY_WRAPPER,
  withoutHookContext,
} from "../../lib/session/search.ts";
import { skimCanonical, skimSession } from "../../lib/session/skim.ts";
import { saveSession, type SessionFile, type SessionMessage } from "../../lib/session/store.ts";
import type { Message } from "../../lib/history.ts";

// ---------------------------------------------------------------------------------------------
// Building session directories

const q = (turn: number, content: string): SessionMessage => ({ role: "user", content, turn });
const a = (turn: number, content: string): SessionMessage => ({
  role: "assistant",
  content,
  turn,
});
const call = (turn: number, content: string | null, command: string): SessionMessage => ({
  role: "assistant",
  content,
  tool_calls: [{
    id: `c${turn}`,
    type: "function",
    function: { name: "bash", arguments: JSON.stringify({ command }) },
  }],
  turn,
});
const tool = (turn: number, content: string): SessionMessage => ({
  role: "tool",
  tool_call_id: `c${turn}`,
  content,
  turn,
});

function session(id: string, updated: string, messages: SessionMessage[]): SessionFile {
  return {
    id,
    created: updated,
    updated,
    cwd: "/work/project",
    provider: "ollama",
    model: "m",
    messages,
    errors: [],
  };
}

/** A new directory holding `sessions`: in mm's layout, or as compact JSON when `compact`. */
async function dirWith(sessions: SessionFile[], compact = false): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "mm-search-" });
  for (const s of sessions) {
    if (compact) await Deno.writeTextFile(`${dir}/${s.id}.json`, JSON.stringify(s));
    else await saveSession(dir, s);
  }
  return dir;
}

/** The result text for `query` over `sessions`, with the directory shown as `<dir>`. */
async function search(
  sessions: SessionFile[],
  query: string,
  options: { limit?: number; exclude?: Message[]; maxOutput?: number; compact?: boolean } = {},
): Promise<string> {
  const dir = await dirWith(sessions, options.compact);
  const text = await searchSessions({ dir, query, ...options });
  await Deno.remove(dir, { recursive: true });
  return text.replaceAll(dir, "<dir>");
}

const T1 = "2026-01-10T09:00:00.000Z";
const T2 = "2026-02-20T10:30:00.000Z";
const T3 = "2026-03-30T23:59:59.000Z";

// ---------------------------------------------------------------------------------------------

Deno.test("search_memory texts", async (t) => {
  await t.step("no hit: the headline, then the advice on the next line", () => {
    assertEquals(
      noHitText("deploy", "/p/.mm/sessions"),
      '🔎 no hit for "deploy" in /p/.mm/sessions\nThe search matches words, not meanings: try again with other words — synonyms, or the words in the language the earlier conversation was likely held in (often English).',
    );
    assertEquals(
      NO_HIT_ADVICE,
      "The search matches words, not meanings: try again with other words — synonyms, or the words in the language the earlier conversation was likely held in (often English).",
    );
  });

  await t.step("empty query", () => {
    assertEquals(EMPTY_QUERY_TEXT, "⚠️ nothing to search: give one or more words");
  });

  await t.step("the summary wrapper and the hook context line", () => {
    assertEquals(
      SUMMARY_WRAPPER,
      "[mm: summary of the conversation so far, made by /compact]",
    );
    assertEquals(HOOK_CONTEXT_LINE, "[context added by a hook]");
  });

  await t.step("notes after the hits", () => {
    assertEquals(
      moreHitsText(3, 10),
      "[3 more hit(s) not shown: give more words, or a higher limit (at most 50)]",
    );
    assertEquals(moreHitsText(3, 50), "[3 more hit(s) not shown: give more words]");
    assertEquals(cutHitsText(2), "[2 more hit(s) not shown: the output reached maxOutput]");
    assertEquals(skippedText(["a.json"]), "[skipped 1 unreadable session file(s): a.json]");
    assertEquals(
      skippedText(["a.json", "b.json", "c.json", "d.json"]),
      "[skipped 4 unreadable session file(s): a.json, b.json, c.json, …]",
    );
  });

  await t.step("date: the session's updated as YYYY-MM-DD HH:MM in UTC", () => {
    assertEquals(hitDate("2026-03-04T05:06:07.890Z"), "2026-03-04 05:06");
    assertEquals(hitDate("2026-03-04T01:06:07+02:00"), "2026-03-03 23:06");
    assertEquals(hitDate("yesterday at noon"), "yesterday at noon");
  });
});

Deno.test("what is searched", async (t) => {
  const m = (query: string) => new WordMatcher(queryWords(query));
  const skim = (s: SessionFile) => skimSession(`${s.id}.json`, JSON.stringify(s));

  await t.step("questions, answers and the notes of summaries, without the wrapper", () => {
    const s = session("s", T1, [
      { role: "user", content: `${SUMMARY_WRAPPER}\nThe user prefers tabs. [mm: x]`, turn: 3 },
      { role: "assistant", content: "Understood. I will continue from this summary.", turn: 3 },
      q(4, "what about tabs?"),
      a(4, "Tabs it is."),
    ]);
    const hits = sessionHits(skim(s), m("tabs"));
    assertEquals(hits.map((h) => [h.kind, h.turn, h.text, h.answer]), [
      ["summary", 3, "The user prefers tabs. [mm: x]", undefined],
      ["question", 4, "what about tabs?", "Tabs it is."],
    ]);
    assertEquals(sessionHits(skim(s), m("summary")), [], "the wrapper is not searched");
    assertEquals(sessionHits(skim(s), m("understood continue")), [], "nor the acknowledgement");
  });

  await t.step("a question carries its turn's last answer, then not a hit of its own", () => {
    const s = session("s", T1, [
      q(1, "how do I deploy?"),
      call(1, "Let me look at deploy.sh", "cat deploy.sh"),
      tool(1, "deploy: rsync to the server"),
      a(1, "Run make deploy; it uses rsync."),
      q(2, "and rollback?"),
      a(2, "Deploy the previous tag."),
    ]);
    const hits = sessionHits(skim(s), m("deploy rsync"));
    assertEquals(hits.map((h) => [h.kind, h.turn, h.score, h.answer]), [
      ["question", 1, 2, "Run make deploy; it uses rsync."],
      ["answer", 2, 1, undefined],
    ]);
  });

  await t.step("its score counts the distinct words of both", () => {
    const s = session("s", T1, [q(1, "alpha alpha?"), a(1, "alpha beta")]);
    assertEquals(sessionHits(skim(s), m("alpha beta gamma"))[0].score, 2);
  });

  await t.step("an answer whose question does not match is a hit of its own", () => {
    const s = session("s", T1, [q(1, "what now?"), a(1, "The answer is rsync.")]);
    assertEquals(sessionHits(skim(s), m("rsync")).map((h) => [h.kind, h.answer]), [
      ["answer", undefined],
    ]);
  });

  await t.step("a file without turn numbers: each question starts a turn", () => {
    const s = session("s", T1, [
      { role: "user", content: "alpha?" },
      { role: "assistant", content: "first" },
      { role: "user", content: "beta?" },
      { role: "assistant", content: "second alpha" },
    ] as SessionMessage[]);
    assertEquals(sessionHits(skim(s), m("alpha")).map((h) => [h.kind, h.turn, h.answer]), [
      ["question", 1, "first"],
      ["answer", 2, undefined],
    ]);
  });

  await t.step("not searched: tool calls and outputs, mm's notes, a blocked prompt, errors", () => {
    const s: SessionFile = {
      ...session("s", T1, [
        q(1, "[mm: the prompt was blocked by a hook: zebra]"),
        q(2, "show it"),
        call(2, null, "echo zebra"),
        tool(2, "zebra"),
        { role: "assistant", content: "[mm: zebra note]", turn: 2 },
        a(2, "Done."),
      ]),
      errors: [{ time: T1, where: "tool", message: "zebra failed" }],
    };
    assertEquals(sessionHits(skim(s), m("zebra")), []);
    assertEquals(
      sessionHits(skimSession(`${s.id}.json`, JSON.stringify(s, null, 1)), m("zebra")),
      [],
    );
  });

  await t.step("an assistant message with tool calls is not an answer, even with text", () => {
    const s = session("s", T1, [q(1, "go"), call(1, "zebra first", "ls"), tool(1, "ok")]);
    assertEquals(sessionHits(skim(s), m("zebra")), []);
  });

  await t.step("the context a preGeneration hook added is not searched", () => {
    assertEquals(
      withoutHookContext(`fix the bug\n${HOOK_CONTEXT_LINE}\nbranch: zebra`),
      "fix the bug",
    );
    assertEquals(withoutHookContext(`${HOOK_CONTEXT_LINE}\nzebra`), "");
    assertEquals(
      withoutHookContext(`say ${HOOK_CONTEXT_LINE} inline\nzebra`),
      `say ${HOOK_CONTEXT_LINE} inline\nzebra`,
    );
    const s = session("s", T1, [q(1, `fix the bug\n${HOOK_CONTEXT_LINE}\nbranch: zebra`)]);
    assertEquals(sessionHits(skim(s), m("zebra")), []);
    assertEquals(sessionHits(skim(s), m("bug"))[0].text, "fix the bug");
  });

  await t.step("mm's layout and any other JSON layout give the same messages", () => {
    const s = session("s", T1, [
      q(1, 'tricky "quotes" \\ back\nslash\n  }\n ]'),
      call(1, null, 'x\n  {\n   "role": "user"'),
      tool(1, '\n  }\n "messages": [\n'),
      a(1, "été — 😀 \u2028 ok"),
    ]);
    const raw = JSON.stringify(s, null, 1) + "\n";
    const skimmed = skimCanonical(raw);
    assertEquals(skimmed !== undefined, true, "mm's layout is skimmed");
    assertEquals(skimmed, skimSession(`${s.id}.json`, JSON.stringify(s)));
    assertEquals(skimCanonical(JSON.stringify(s)), undefined);
    assertEquals(skimCanonical(raw.slice(0, -10)), undefined, "a cut file is parsed in full");
    // A message without its turn (written by hand) is parsed in full, which gives it its turn.
    const handmade = { ...s, messages: [...s.messages, { role: "user", content: "no turn" }] };
    const text = JSON.stringify(handmade, null, 1) + "\n";
    assertEquals(skimCanonical(text), undefined);
    assertEquals(skimSession(`${s.id}.json`, text).messages.at(-1)?.turn, 2);
  });
});

Deno.test("searchSessions", async (t) => {
  await t.step("the result: headline, then per hit its line, its excerpt, its answer", async () => {
    const text = await search([
      session("20260110-090000-aaaaaa", T1, [
        q(1, "What is my deploy Préférence?"),
        a(1, "You prefer blue-green deploys."),
      ]),
      session("20260220-103000-bbbbbb", T2, [
        q(1, "something else"),
        a(1, "Your preference was noted."),
      ]),
    ], "preference");
    assertEquals(
      text,
      '🔎 2 hit(s) for "preference" in <dir>\n\n' +
        "20260220-103000-bbbbbb · 2026-02-20 10:30 · turn 1 · answer\n" +
        "Your preference was noted.\n\n" +
        "20260110-090000-aaaaaa · 2026-01-10 09:00 · turn 1 · question\n" +
        "What is my deploy Préférence?\n" +
        "→ You prefer blue-green deploys.",
    );
  });

  await t.step("the answer line: the text around the words, or its beginning", async () => {
    const long = "intro ".repeat(60) + "the zebra is here " + "tail ".repeat(100);
    const text = await search([
      session("s1", T1, [q(1, "zebra?"), a(1, long)]),
      session("s2", T2, [q(1, "zebra again?"), a(1, "w".repeat(400))]),
    ], "zebra");
    const lines = text.split("\n");
    assertEquals(lines[4], `→ ${"w".repeat(240)}…`);
    assertEquals(lines[8], `→ ${excerpt(long, ["zebra"])}`);
    assertEquals(lines[8].startsWith("→ …tro intro"), true);
  });

  await t.step("no hit, and the directory as resolved", async () => {
    const dir = await dirWith([session("s", T1, [q(1, "hello"), a(1, "hi")])]);
    const text = await searchSessions({ dir, query: "  zebra  " });
    assertEquals(text, noHitText("zebra", dir));
    assertEquals(
      await searchSessions({ dir: `${dir}/missing`, query: "zebra" }),
      noHitText("zebra", `${dir}/missing`),
    );
    await Deno.remove(dir, { recursive: true });
  });

  await t.step("an empty query, or only punctuation", async () => {
    assertEquals(await search([], ""), EMPTY_QUERY_TEXT);
    assertEquals(await search([], " \n\t"), EMPTY_QUERY_TEXT);
    assertEquals(await search([], "?! — ..."), EMPTY_QUERY_TEXT);
  });

  await t.step("short words left out beside longer ones, kept alone", async () => {
    const sessions = [session("s", T1, [q(1, "de la"), a(1, "ok")])];
    assertStringIncludes(await search(sessions, "de zebra"), "no hit");
    assertStringIncludes(await search(sessions, "de"), '🔎 1 hit(s) for "de"');
  });

  await t.step("order: words held, then the newest session, then the latest turn", async () => {
    const text = await search([
      session("old", T1, [q(1, "alpha"), a(1, "x"), q(2, "alpha"), a(2, "y")]),
      session("new", T3, [q(1, "alpha"), a(1, "x")]),
      session("mid", T2, [q(1, "alpha"), a(1, "x")]),
      session("best", T1, [q(1, "alpha and beta"), a(1, "x")]),
    ], "alpha beta");
    const heads = text.split("\n").filter((l) => / · turn /.test(l));
    assertEquals(heads, [
      "best · 2026-01-10 09:00 · turn 1 · question",
      "new · 2026-03-30 23:59 · turn 1 · question",
      "mid · 2026-02-20 10:30 · turn 1 · question",
      "old · 2026-01-10 09:00 · turn 2 · question",
      "old · 2026-01-10 09:00 · turn 1 · question",
    ]);
  });

  await t.step("the conversation in progress is left out, wherever it is stored", async () => {
    const current: Message[] = [
      { role: "system", content: "You are mm." },
      { role: "user", content: "where is the zebra?" },
      { role: "assistant", content: "The zebra is in the zoo." },
      { role: "user", content: "and now, zebra?" },
    ];
    const text = await search(
      [
        session("current", T3, [q(1, "where is the zebra?"), a(1, "The zebra is in the zoo.")]),
        session("resumed-copy", T2, [
          q(1, "where is the zebra?"),
          a(1, "The zebra is in the zoo."),
          q(2, "zebra stripes?"),
          a(2, "Black and white."),
        ]),
        session("other", T1, [q(1, "hello"), a(1, "The zebra is in the zoo.")]),
      ],
      "zebra",
      { exclude: current },
    );
    const heads = text.split("\n").filter((l) => / · turn /.test(l));
    assertEquals(heads, ["resumed-copy · 2026-02-20 10:30 · turn 2 · question"]);
  });

  await t.step("limit: 0 or absent is 10, capped at 50, a note says what was left", async () => {
    const many = Array.from(
      { length: 60 },
      (_, i) => session(`s${String(i).padStart(2, "0")}`, T1, [q(1, `zebra ${i}`)]),
    );
    const count = (text: string) => text.split("\n").filter((l) => / · turn /.test(l)).length;
    const absent = await search(many, "zebra");
    assertEquals(count(absent), DEFAULT_LIMIT);
    assertEquals(absent.startsWith('🔎 10 hit(s) for "zebra" in <dir>\n\n'), true);
    assertEquals(absent.endsWith(`\n\n${moreHitsText(50, 10)}`), true);
    assertEquals(count(await search(many, "zebra", { limit: 0 })), 10);
    assertEquals(count(await search(many, "zebra", { limit: 3 })), 3);
    const capped = await search(many, "zebra", { limit: 500 });
    assertEquals(count(capped), MAX_LIMIT);
    assertEquals(capped.endsWith(`\n\n${moreHitsText(10, 50)}`), true);
  });

  await t.step("maxOutput caps the whole text, whole hits first", async () => {
    const sessions = Array.from(
      { length: 5 },
      (_, i) => session(`s${i}`, T1, [q(1, `zebra ${"z".repeat(100)} ${i}`)]),
    );
    const full = await search(sessions, "zebra");
    const capped = await search(sessions, "zebra", { maxOutput: 500 });
    assertEquals(capped.length <= 500, true);
    const shown = Number(/^🔎 (\d) hit\(s\)/.exec(capped)![1]);
    assertEquals(shown > 0 && shown < 5, true);
    assertEquals(capped.split("\n").filter((l) => / · turn /.test(l)).length, shown);
    assertEquals(capped.endsWith(`\n\n${cutHitsText(5 - shown)}`), true);
    assertEquals(full.startsWith('🔎 5 hit(s) for "zebra"'), true);
    const tiny = await search(sessions, "zebra", { maxOutput: 40 });
    assertEquals(tiny.length, 40);
    assertEquals(tiny.endsWith("…"), true);
  });

  await t.step("unreadable session files are skipped, and named at the end", async () => {
    const dir = await dirWith([session("good", T1, [q(1, "zebra here")])]);
    await Deno.writeTextFile(`${dir}/broken.json`, '{"id": "x", "messages": [ zebra');
    await Deno.writeTextFile(`${dir}/quiet.json`, '{"id": "y", "messages": [');
    await Deno.writeTextFile(`${dir}/notes.txt`, "zebra");
    await Deno.mkdir(`${dir}/folder.json`);
    await Deno.writeTextFile(`${dir}/shape.json`, '{"zebra": true}');
    const text = await searchSessions({ dir, query: "zebra" });
    assertEquals(
      text,
      `🔎 1 hit(s) for "zebra" in ${dir}\n\ngood · 2026-01-10 09:00 · turn 1 · question\nzebra here\n` +
        skippedText(["broken.json", "shape.json"]),
    );
    const none = await searchSessions({ dir, query: "zebras" });
    assertEquals(none, noHitText("zebras", dir), "a broken file that cannot hold the word: silent");
    const zebra = await searchSessions({ dir, query: "zebra", exclude: [q(1, "zebra here")] });
    assertEquals(
      zebra,
      noHitText("zebra", dir) + "\n" + skippedText(["broken.json", "shape.json"]),
    );
    await Deno.remove(dir, { recursive: true });
  });

  await t.step("files in any JSON layout are searched alike", async () => {
    const sessions = [
      session("a", T1, [q(1, "my préférence?"), call(1, null, "x"), tool(1, "p"), a(1, "tea")]),
      session("b", T2, [q(1, "other"), a(1, "Preference noted")]),
    ];
    assertEquals(
      await search(sessions, "preference", { compact: true }),
      await search(sessions, "preference"),
    );
  });

  await t.step("findHits keeps only the best hits, and counts them all", async () => {
    const dir = await dirWith(
      Array.from({ length: 30 }, (_, i) => session(`s${i}`, T1, [q(1, "zebra"), a(1, "zebra")])),
    );
    const found = await findHits(dir, new WordMatcher(["zebra"]), 5);
    assertEquals([found.hits.length, found.total, found.skipped], [5, 30, []]);
    await Deno.remove(dir, { recursive: true });
  });

  await t.step("a cancelled search stops reading", async () => {
    const dir = await dirWith([session("s", T1, [q(1, "zebra")])]);
    const controller = new AbortController();
    controller.abort();
    const text = await searchSessions({ dir, query: "zebra", signal: controller.signal });
    assertEquals(text, noHitText("zebra", dir));
    await Deno.remove(dir, { recursive: true });
  });
});

/** search_memory and save_answer through the real `mm -p`, against the scripted server. */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { readSessions, runMM, sessionsOf, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

const MEMORY = "sessions:\n  enabled: true\n  autoSearchMemory: true\nsaveAnswerTool: true\n";

/** Working directories made by this file, removed at the end. */
const made: string[] = [];

async function dirFor(model: string, extra = MEMORY): Promise<string> {
  const dir = await workdir(`url: ${server.url}\nmodel: ${model}\n${extra}`);
  made.push(dir);
  return dir;
}

/** The tool messages mm sent back in the `n`th chat request for `model`. */
// deno-lint-ignore no-explicit-any
function toolMessages(model: string, n: number): any[] {
  // deno-lint-ignore no-explicit-any
  return server.chats(model)[n].body.messages.filter((m: any) => m.role === "tool");
}

/** The session files of a working directory, parsed. */
const sessions = readSessions;

Deno.test("memory tools", async (t) => {
  await runCases(t, {
    "a second run's search_memory finds the first run's session": async () => {
      server.script("memory", [
        { text: "Your deploy préférence is blue-green." },
        { toolCalls: [{ name: "search_memory", arguments: { query: "Preference" } }] },
        { text: "You prefer blue-green." },
      ]);
      const dir = await dirFor("memory");
      const first = await runMM(["-p", "remember my deploy preference: blue-green"], { cwd: dir });
      assertEquals(first.code, 0, first.stderr);
      const [earlier] = await sessions(dir);
      const second = await runMM(["-p", "what deploy style did I choose?"], { cwd: dir });
      assertEquals(second.code, 0, second.stderr);
      assertEquals(second.stdout, "You prefer blue-green.\n");
      assertStringIncludes(second.stderr, '🔎 search_memory: "Preference"\n');
      // deno-lint-ignore no-explicit-any
      const declared = server.chats("memory")[1].body.tools.map((x: any) => x.function.name);
      assertEquals(declared.includes("search_memory"), true);
      assertEquals(declared.includes("save_answer"), true);
      const date = new Date(earlier.updated).toISOString().slice(0, 16).replace("T", " ");
      assertEquals(
        toolMessages("memory", 2)[0].content,
        `🔎 1 hit(s) for "Preference" in ${sessionsOf(dir)}\n\n` +
          `${earlier.id} · ${date} · turn 1 · question\n` +
          "remember my deploy preference: blue-green\n" +
          "→ Your deploy préférence is blue-green.",
      );
    },
    "search_memory with no hit gives the advice": async () => {
      server.script("memory-none", [
        { toolCalls: [{ name: "search_memory", arguments: { query: "zebra" } }] },
        { text: "Nothing." },
      ]);
      const dir = await dirFor("memory-none");
      const run = await runMM(["-p", "did we talk about a zebra?"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(
        toolMessages("memory-none", 1)[0].content,
        `🔎 no hit for "zebra" in ${
          sessionsOf(dir)
        }\nThe search matches words, not meanings: try again with other words — synonyms, or the words in the language the earlier conversation was likely held in (often English).`,
        "the question in progress is left out",
      );
    },
    "save_answer writes the previous answer": async () => {
      server.script("save-previous", [
        { text: "The plan:\n1. build\n2. ship" },
        { toolCalls: [{ name: "save_answer", arguments: { path: "out/plan.md" } }] },
        { text: "Saved." },
      ]);
      const dir = await dirFor("save-previous");
      const first = await runMM(["-p", "plan?"], { cwd: dir });
      assertEquals(first.code, 0, first.stderr);
      const second = await runMM(["-p", "save it to out/plan.md", "--continue"], { cwd: dir });
      assertEquals(second.code, 0, second.stderr);
      assertEquals(await Deno.readTextFile(`${dir}/out/plan.md`), "The plan:\n1. build\n2. ship\n");
      const output =
        "saved the previous answer to out/plan.md (27 bytes), starting with: The plan:";
      assertEquals(toolMessages("save-previous", 2)[0].content, output);
      assertStringIncludes(
        second.stderr,
        `💾 save_answer: out/plan.md (the previous answer)\n   ${output}\n`,
      );
    },
    "save_answer writes the text of the message that calls it": async () => {
      server.script("save-this", [
        {
          text: "Roses are red.\nViolets are blue.",
          toolCalls: [{ name: "save_answer", arguments: { path: "poem.txt" } }],
        },
        { text: "Saved to poem.txt." },
      ]);
      const dir = await dirFor("save-this", "saveAnswerTool: true\n");
      const run = await runMM(["-p", "write a poem and save it"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(
        await Deno.readTextFile(`${dir}/poem.txt`),
        "Roses are red.\nViolets are blue.\n",
      );
      assertStringIncludes(run.stderr, "💾 save_answer: poem.txt (this answer)\n");
      assertEquals(
        toolMessages("save-this", 1)[0].content,
        "saved this answer to poem.txt (33 bytes), starting with: Roses are red.",
      );
    },
    "save_answer never overwrites a file": async () => {
      server.script("save-exists", [
        { text: "new text", toolCalls: [{ name: "save_answer", arguments: { path: "a.md" } }] },
        { text: "It exists." },
      ]);
      const dir = await dirFor("save-exists", "saveAnswerTool: true\n");
      await Deno.writeTextFile(`${dir}/a.md`, "old\n");
      const run = await runMM(["-p", "save"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(await Deno.readTextFile(`${dir}/a.md`), "old\n");
      assertEquals(
        toolMessages("save-exists", 1)[0].content,
        "[save_answer: a.md already exists — nothing was written. Pick another name, or ask the user]",
      );
    },
    "with yolo: false, -p rejects save_answer": async () => {
      server.script("save-rejected", [
        { text: "text", toolCalls: [{ name: "save_answer", arguments: { path: "a.md" } }] },
        { text: "Refused." },
      ]);
      const dir = await dirFor("save-rejected", "saveAnswerTool: true\nyolo: false\n");
      const run = await runMM(["-p", "save"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(
        toolMessages("save-rejected", 1)[0].content,
        "[save_answer rejected by the user]",
      );
      const exists = await Deno.stat(`${dir}/a.md`).then(() => true, () => false);
      assertEquals(exists, false);
    },
    "with no answer to save, nothing is asked even with yolo: false": async () => {
      server.script("save-nothing", [
        { toolCalls: [{ name: "save_answer", arguments: { path: "a.md" } }] },
        { text: "ok" },
      ]);
      const dir = await dirFor("save-nothing", "saveAnswerTool: true\nyolo: false\n");
      const run = await runMM(["-p", "save"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(
        toolMessages("save-nothing", 1)[0].content,
        "[save_answer: there is no answer to save yet — write the answer in your reply first, then call save_answer with the file name]",
      );
      assertStringIncludes(run.stderr, "💾 save_answer: a.md\n");
    },
    "with yolo: false, search_memory still runs: it only reads": async () => {
      server.script("search-yolo", [
        { toolCalls: [{ name: "search_memory", arguments: { query: "zebra", limit: "3" } }] },
        { text: "ok" },
      ]);
      const dir = await dirFor("search-yolo", `${MEMORY}yolo: false\n`);
      const run = await runMM(["-p", "search"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertStringIncludes(toolMessages("search-yolo", 1)[0].content, '🔎 no hit for "zebra"');
    },
  });
  await server.close();
  for (const dir of made) await Deno.remove(dir, { recursive: true });
});

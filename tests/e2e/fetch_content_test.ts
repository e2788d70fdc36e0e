/** fetch_content through the real `mm -p`: pages served on 127.0.0.1, a scripted model calling the tool. */

import { assertEquals } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { VERSION } from "../../lib/version.ts";

const server = ScriptedServer.start();

const ARTICLE =
  `<!DOCTYPE html><html><head><title>Release notes</title><script>track()</script></head>
<body><nav><a href="/">Home</a></nav>
<div class="cookie-notice">We use cookies <button>OK</button></div>
<main><h1>mm 0.2</h1><p>Now with <code>fetch_content</code> and <a href="/docs">docs</a>.</p>
<ul><li>Markdown out</li><li>robots.txt in</li></ul></main>
<footer>© mm</footer></body></html>`;

const ARTICLE_MD = (origin: string) =>
  `# mm 0.2\n\nNow with \`fetch_content\` and [docs](${origin}/docs).\n\n- Markdown out\n- robots.txt in\n`;

/** User-Agent of every request the page server received, by path. */
const agents: { path: string; agent: string | null }[] = [];

/** The one server of pages for this file. */
const pages = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
  const path = new URL(req.url).pathname;
  agents.push({ path, agent: req.headers.get("user-agent") });
  if (path === "/robots.txt") return new Response("User-agent: mm\nDisallow: /members/\n");
  if (path === "/release") {
    return new Response(null, { status: 302, headers: { location: "/article" } });
  }
  if (path === "/article" || path === "/members/area") {
    return new Response(ARTICLE, { headers: { "content-type": "text/html; charset=utf-8" } });
  }
  return new Response("not found", { status: 404 });
});
const origin = `http://127.0.0.1:${pages.addr.port}`;

/** A working directory whose agent file points at the scripted server, fetch_content declared. */
function dirFor(model: string, extra = "fetchContentTool: true\n"): Promise<string> {
  return workdir(`url: ${server.url}\nmodel: ${model}\n${extra}`);
}

/** The tool messages mm sent back in the `n`th chat request for `model`. */
function toolMessages(model: string, n: number): string[] {
  // deno-lint-ignore no-explicit-any
  return server.chats(model)[n].body.messages.filter((m: any) => m.role === "tool").map((
    m: { content: string },
  ) => m.content);
}

Deno.test("fetch_content end to end", async (t) => {
  await runCases(t, {
    "declared with fetchContentTool: true only": async () => {
      server.script("fc-declared", [{ text: "a" }]);
      server.script("fc-undeclared", [{ text: "b" }]);
      await runMM(["-p", "x"], { cwd: await dirFor("fc-declared") });
      await runMM(["-p", "x"], { cwd: await dirFor("fc-undeclared", "") });
      /** The functions declared in the first chat request for `model`. */
      type Fn = { name: string; parameters: { properties: object; required: string[] } };
      const names = (model: string): Fn[] =>
        server.chats(model)[0].body.tools.map((t: { function: Fn }) => t.function);
      const declared = names("fc-declared").find((f) => f.name === "fetch_content")!;
      assertEquals(Object.keys(declared.parameters.properties), [
        "url",
        "output",
        "baseUrl",
        "tables",
        "strikethrough",
        "taskList",
      ]);
      assertEquals(declared.parameters.required, ["url"]);
      assertEquals(
        names("fc-undeclared").some((f) => f.name === "fetch_content"),
        false,
      );
    },
    "the Markdown reaches the model; the display line and its preview": async () => {
      server.script("fc-read", [
        { toolCalls: [{ name: "fetch_content", arguments: { url: `${origin}/release` } }] },
        { text: "Version 0.2 adds fetch_content." },
      ]);
      const run = await runMM(["-p", "what is new?"], { cwd: await dirFor("fc-read") });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.stdout, "Version 0.2 adds fetch_content.\n");
      assertEquals(toolMessages("fc-read", 1), [ARTICLE_MD(origin)]);
      assertEquals(
        run.stderr,
        `🌐 fetch_content: ${origin}/release\n   # mm 0.2\n   \n` +
          `   Now with \`fetch_content\` and [docs](${origin}/docs).\n   \n   - Markdown out\n`,
      );
      const hits = agents.filter((a) => a.path === "/release" || a.path === "/article");
      assertEquals(hits.every((a) => a.agent === `mm/${VERSION}`), true);
    },
    "with output: the file is written, the model reads one line": async () => {
      server.script("fc-save", [
        {
          toolCalls: [{
            name: "fetch_content",
            arguments: { url: `${origin}/article`, output: "notes/release.md" },
          }],
        },
        { text: "Saved." },
      ]);
      const dir = await dirFor("fc-save");
      const run = await runMM(["-p", "save it"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const markdown = ARTICLE_MD(origin);
      assertEquals(await Deno.readTextFile(`${dir}/notes/release.md`), markdown);
      const saved = `[fetch_content: saved 6 lines of Markdown (${
        new TextEncoder().encode(markdown).length
      } bytes) from ${origin}/article to notes/release.md — the content is not shown]`;
      assertEquals(toolMessages("fc-save", 1), [saved]);
      assertEquals(
        run.stderr,
        `🌐 fetch_content: ${origin}/article → notes/release.md\n   ${saved}\n`,
      );
    },
    "yolo: false asks for every fetch, and -p refuses": async () => {
      server.script("fc-careful", [
        {
          toolCalls: [
            { name: "fetch_content", arguments: { url: `${origin}/article`, output: "a.md" } },
            { name: "fetch_content", arguments: { url: `${origin}/article` } },
          ],
        },
        { text: "ok" },
      ]);
      const dir = await dirFor("fc-careful", "fetchContentTool: true\nyolo: false\n");
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolMessages("fc-careful", 1), [
        "[fetch_content rejected by the user]",
        "[fetch_content rejected by the user]",
      ]);
      assertEquals(await Deno.stat(`${dir}/a.md`).then(() => true, () => false), false);
    },
    "an allow rule on the host lets a fetch run with yolo: false": async () => {
      server.script("fc-host", [
        { toolCalls: [{ name: "fetch_content", arguments: { url: `${origin}/article` } }] },
        { text: "ok" },
      ]);
      const file =
        "fetchContentTool: true\nyolo: false\npermissions: {allow: [fetch_content(127.0.0.1)]}\n";
      const run = await runMM(["-p", "x"], { cwd: await dirFor("fc-host", file) });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolMessages("fc-host", 1), [ARTICLE_MD(origin)]);
    },
    "a failure reaches the model as its error line": async () => {
      server.script("fc-robots", [
        {
          toolCalls: [
            { name: "fetch_content", arguments: { url: `${origin}/members/area` } },
            { name: "fetch_content", arguments: { url: `${origin}/article`, tables: "grid" } },
          ],
        },
        { text: "Not allowed." },
      ]);
      const run = await runMM(["-p", "x"], { cwd: await dirFor("fc-robots") });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolMessages("fc-robots", 1), [
        `[fetch_content: error 2 (input) — ${origin}/robots.txt does not allow mm to fetch ${origin}/members/area]`,
        '[fetch_content: error 3 (usage) — tables must be html or flatten, not "grid"]',
      ]);
    },
  });
  await server.close();
  await pages.shutdown();
});

/**
 * The conversation's commands (lib/agent/commands.ts), without a terminal: each command run on a
 * real Agent over a fake chat client, its typed outcome and its texts asserted byte for byte.
 */

import { Agent } from "../../lib/agent/agent.ts";
import {
  ASK_COMMAND_ID,
  ASK_NO_AGENTS,
  ASK_USAGE,
  BANG_USAGE,
  cancelledText,
  COMMANDS,
  commandsOf,
  Conversation,
  type ConversationHost,
  findCommand,
  helpText,
  MEMORY_NEEDS_SESSIONS,
  MODEL_NONE,
  MODEL_UNAVAILABLE,
  NO_SESSIONS_TEXT,
  NOTHING_TO_ABORT,
  NOTHING_TO_SKIP,
  NOTHING_TO_UNDO,
  outcomeLines,
  parseCommand,
  PLAN_OFF_TEXT,
  PLAN_ON_TEXT,
  PLAN_USAGE,
  ranText,
  RESUME_HEAD,
  RESUME_NEEDS_SESSIONS,
  resumeRangeText,
  rewindRangeText,
  THINK_USAGE,
  UNDO_NEEDS_SESSIONS,
  unknownCommandText,
} from "../../lib/agent/commands.ts";
import type { AgentEvent } from "../../lib/agent/events.ts";
import { PLAN_MODE_PROMPT } from "../../lib/agent/prompt.ts";
import { type Config, defaultConfig } from "../../lib/config/config.ts";
import { COMPACT_ACK, COMPACT_WRAPPER, type Message } from "../../lib/history.ts";
import type { ChatClient, ChatRequest, ChatResult } from "../../lib/provider/chat.ts";
import { SessionLock, SessionLockError } from "../../lib/session/lock.ts";
import { ProviderError } from "../../lib/provider/errors.ts";
import { saveSession } from "../../lib/session/store.ts";
import type { AnyTool, Tool } from "../../lib/tool.ts";
import { COMMIT } from "../../lib/build_info.ts";
import { VERSION } from "../../lib/version.ts";
import { assertEquals } from "../helpers/assert.ts";
import { fakeContext } from "../helpers/fake_context.ts";

const target = { provider: "openai" as const, url: "http://fake/v1", model: "fake" };

/** A chat client that answers `texts` in order; one of `"wait"` waits for the request's cancel. */
function fakeChat(texts: string[]) {
  const requests: ChatRequest[] = [];
  const chat: ChatClient = {
    target,
    stream(request) {
      requests.push(request);
      const text = texts.shift() ?? "no more";
      if (text !== "wait") {
        return Promise.resolve({ text, thought: "", toolCalls: [] } satisfies ChatResult);
      }
      return new Promise((_, reject) =>
        request.signal?.addEventListener("abort", () => reject(new Error("stopped")))
      );
    },
  };
  return { chat, requests };
}

/** A stand-in for ask_agent: answers `<prompt> done`, or fails for agent `broken`. */
const askAgent: Tool<{ agent: string; prompt: string }> = {
  name: "ask_agent",
  kind: "other",
  emoji: "🗣",
  asks: false,
  declared: () => true,
  description: "Asks an agent.",
  parameters: {
    agent: { type: "string", description: "Who." },
    prompt: { type: "string", description: "What." },
  },
  summary: (input) => `${input.agent} — ${input.prompt}`,
  run: (input) =>
    Promise.resolve(
      input.agent === "broken"
        ? { output: "[ask_agent: broken failed: no file]", failed: true }
        : { output: `${input.prompt} done`, display: `${input.agent} answered (9 characters)` },
    ),
};

/** A conversation over a fake chat; what it emitted; how many agents and sessions it made. */
function conversation(
  texts: string[],
  opts: {
    tools?: AnyTool[];
    config?: Partial<Config>;
    lock?: boolean;
    editor?: boolean;
    models?: ConversationHost["models"];
  } = {},
) {
  const events: AgentEvent[] = [];
  const made = { agents: 0, sessions: 0 };
  const { chat, requests } = fakeChat(texts);
  const config = { ...defaultConfig(), url: target.url, model: target.model, ...opts.config };
  const tools = opts.tools ?? [];
  const host: ConversationHost = {
    config,
    cwd: "/nowhere",
    tools,
    agent: (earlier?: { message: Message; turn: number }[]) => {
      made.agents++;
      return new Agent({
        config,
        chat,
        tools,
        systemPrompt: "You are a test.",
        context: (signal) => fakeContext({ signal }),
        askPermission: () => Promise.resolve({ kind: "reject" }),
        emit: (e) => events.push(e),
      }, earlier);
    },
    newSession: () => {
      if (opts.lock) return Promise.reject(new SessionLockError("s1", "/x/s1.lock", "read-only"));
      made.sessions++;
      return Promise.resolve(`s${made.sessions}`);
    },
    emit: (e) => events.push(e),
    ...(opts.models ? { models: opts.models } : {}),
  };
  return { c: new Conversation(host, { editor: opts.editor }), events, made, requests };
}

const idle = () => new AbortController().signal;
const run = (c: Conversation, line: string, signal = idle()) => c.run(parseCommand(line)!, signal);

Deno.test("parseCommand: a name, then the rest; a path is a prompt", () => {
  assertEquals(parseCommand("/new"), { name: "/new", args: "" });
  assertEquals(parseCommand("  /ASK helper  count the files "), {
    name: "/ask",
    args: "helper  count the files",
  });
  assertEquals(parseCommand("/memory\nbuild tool"), { name: "/memory", args: "build tool" });
  assertEquals(parseCommand("/etc/hosts what is in it?"), undefined);
  assertEquals(parseCommand("/tmp/x.log"), undefined);
  assertEquals(parseCommand("fix /etc/hosts"), undefined);
});

Deno.test("every command, without a terminal", async (t) => {
  await t.step("/help lists every command, in order; the editor's only its own", async () => {
    const { c } = conversation([]);
    const outcome = await run(c, "/help");
    assertEquals(outcome, { kind: "help", text: helpText() });
    assertEquals(outcomeLines(outcome), [
      [
        "Commands:",
        "  /help                   this list",
        "  /new                    start a new conversation (and a new session file)",
        "  /compact                replace the conversation by the model's summary of it",
        "  /memory <words>         search earlier conversations (sessions)",
        "  /ask <agent> <prompt>   hand a task to an agent of mmConfigs",
        "  /version                the version of mm that runs this conversation",
        "  /think on|off|low|high  whether the model thinks, and how hard (for this conversation)",
        "  /undo                   take back the last turn: its files and its messages",
        "  /rewind [N]             list the turns; take back turn N and every later one",
        "  /plan [on|off]          plan mode: only reading runs, the model answers with a plan (Shift+Tab too)",
        "  /model [name]           list the server's models, or switch to one (the conversation is kept)",
        "  !<command>              run a shell command; it and its output go along with the next prompt",
        "  /resume [N]             list this directory's sessions; switch to session N",
        "  /abort                  stop the running turn (Esc and Ctrl-C do too)",
        "  /skip                   decline a question the model asked",
        "  /quit, /exit            leave mm (Ctrl-D does too)",
      ].join("\n"),
    ]);
    const editor = conversation([], { editor: true }).c;
    assertEquals((await run(editor, "/help")).kind, "help");
    assertEquals(commandsOf(true).map((x) => x.name), [
      "/help",
      "/compact",
      "/memory",
      "/ask",
      "/version",
      "/think",
      "/undo",
      "/rewind",
    ]);
  });

  await t.step("/undo with no turn, /rewind 0 and 99, and without sessions", async () => {
    const { c } = conversation(["hello"]);
    assertEquals(await run(c, "/undo"), { kind: "said", text: NOTHING_TO_UNDO });
    assertEquals(await run(c, "/rewind"), { kind: "said", text: NOTHING_TO_UNDO });
    await c.agent.runTurn("hi", idle());
    assertEquals(await run(c, "/rewind 0"), { kind: "said", text: rewindRangeText(1) });
    assertEquals(await run(c, "/rewind 99"), { kind: "said", text: rewindRangeText(1) });
    assertEquals(rewindRangeText(1), "/rewind N: N is a turn from 1 to 1 (/rewind lists them)");
    // The fake conversation keeps no session: nothing can be taken back, and it says why.
    assertEquals(await run(c, "/undo"), { kind: "said", text: UNDO_NEEDS_SESSIONS });
    assertEquals(c.agent.history.length, 3);
  });

  await t.step(
    "sessions off: /undo and /rewind say they need sessions, before any turn too",
    async () => {
      const { c } = conversation(["hello"], {
        config: { sessions: { ...defaultConfig().sessions, enabled: false } },
      });
      assertEquals(await run(c, "/undo"), { kind: "said", text: UNDO_NEEDS_SESSIONS });
      assertEquals(await run(c, "/rewind"), { kind: "said", text: UNDO_NEEDS_SESSIONS });
      assertEquals(await run(c, "/rewind 1"), { kind: "said", text: UNDO_NEEDS_SESSIONS });
      await c.agent.runTurn("hi", idle());
      assertEquals(await run(c, "/rewind"), { kind: "said", text: UNDO_NEEDS_SESSIONS });
    },
  );

  await t.step(
    "/new: a new session and an empty agent; a held lock is said, not thrown",
    async () => {
      const { c, made } = conversation(["hello"]);
      await c.agent.runTurn("hi", idle());
      const first = c.agent;
      const outcome = await run(c, "/new");
      assertEquals(outcome, { kind: "new", session: "s1" });
      assertEquals(outcomeLines(outcome), ["new conversation (session s1)"]);
      assertEquals(c.agent === first, false);
      assertEquals(c.agent.history.length, 1);
      assertEquals(made, { agents: 2, sessions: 1 });
      const locked = conversation([], { lock: true }).c;
      const held = await run(locked, "/new");
      assertEquals(outcomeLines(held), [
        "[error: session s1 cannot be locked: /x/s1.lock cannot be used (read-only) — check sessions.dir in the agent file]",
        "new conversation",
      ]);
    },
  );

  await t.step(
    "/version: mm's version, as mm --version says it; the editor offers it",
    async () => {
      const { c } = conversation([]);
      const outcome = await run(c, "/version");
      assertEquals(outcome, {
        kind: "said",
        text: `mm ${VERSION} (${COMMIT}, ${Deno.build.target})`,
      });
      assertEquals(outcomeLines(outcome), [`mm ${VERSION} (${COMMIT}, ${Deno.build.target})`]);
      assertEquals(findCommand("/version", true)?.name, "/version");
    },
  );

  await t.step("/compact: the history becomes the summary", async () => {
    const { c } = conversation(["hello", "the notes"]);
    await c.agent.runTurn("hi", idle());
    const outcome = await run(c, "/compact");
    assertEquals(outcome, { kind: "compacted", before: 2, chars: 9 });
    assertEquals(outcomeLines(outcome), ["compacted: 2 message(s) → a summary of 9 characters"]);
    assertEquals(c.agent.history.slice(1).map((m) => m.content), [
      `${COMPACT_WRAPPER}\nthe notes`,
      COMPACT_ACK,
    ]);
  });

  await t.step("/compact with nothing yet fails with the reason", async () => {
    const { c } = conversation([]);
    const outcome = await run(c, "/compact");
    assertEquals(outcomeLines(outcome), ["/compact: there is nothing to compact yet"]);
    assertEquals(outcome.kind, "failed");
  });

  await t.step("/compact cancelled: the conversation is as it was", async () => {
    const { c, requests } = conversation(["hello", "wait"]);
    await c.agent.runTurn("hi", idle());
    const before = [...c.agent.history];
    const controller = new AbortController();
    const running = run(c, "/compact", controller.signal);
    while (requests.length < 2) await Promise.resolve();
    controller.abort();
    const outcome = await running;
    assertEquals(outcome, { kind: "cancelled", command: "/compact" });
    assertEquals(outcomeLines(outcome), [cancelledText("/compact")]);
    assertEquals(cancelledText("/compact"), "/compact cancelled: the conversation is as it was");
    assertEquals(c.agent.history, before);
  });

  await t.step("/memory needs sessions", async () => {
    const { c } = conversation([], {
      config: { sessions: { ...defaultConfig().sessions, enabled: false } },
    });
    assertEquals(await run(c, "/memory build"), { kind: "said", text: MEMORY_NEEDS_SESSIONS });
    assertEquals(
      MEMORY_NEEDS_SESSIONS,
      "/memory needs sessions: set sessions.enabled: true (and keep sessions.searchMemory: true)",
    );
  });

  await t.step("/ask without agents, without a name", async () => {
    assertEquals(await run(conversation([]).c, "/ask helper go"), {
      kind: "said",
      text: ASK_NO_AGENTS,
    });
    assertEquals(ASK_NO_AGENTS, "/ask: the agent file names no agents (mmConfigs)");
    const { c } = conversation([], { tools: [askAgent as AnyTool] });
    assertEquals(await run(c, "/ask"), { kind: "said", text: ASK_USAGE });
    assertEquals(ASK_USAGE, "/ask <agent> <prompt>: name an agent of mmConfigs, then the task");
  });

  await t.step("/ask: drawn as its call; the answer joins the history", async () => {
    const { c, events } = conversation([], { tools: [askAgent as AnyTool] });
    const outcome = await run(c, "/ask helper count the files");
    assertEquals(outcome, { kind: "asked", answered: true });
    assertEquals(outcomeLines(outcome), []);
    assertEquals(events, [
      {
        type: "tool_call",
        id: ASK_COMMAND_ID,
        name: "ask",
        kind: "other",
        emoji: "🗣",
        summary: "helper — count the files",
        input: { agent: "helper", prompt: "count the files" },
      },
      {
        type: "tool_result",
        id: ASK_COMMAND_ID,
        name: "ask",
        output: "count the files done",
        failed: false,
        display: "helper answered (9 characters)",
      },
    ]);
    assertEquals(c.agent.history.slice(1).map((m) => m.content), [
      "/ask helper count the files",
      "helper answered:\ncount the files done",
    ]);
  });

  await t.step("/ask that fails keeps the history as it was", async () => {
    const { c, events } = conversation([], { tools: [askAgent as AnyTool] });
    assertEquals(await run(c, "/ask broken go"), { kind: "asked", answered: false });
    assertEquals(events.at(-1)?.type === "tool_result" && events.at(-1), {
      type: "tool_result",
      id: ASK_COMMAND_ID,
      name: "ask",
      output: "[ask_agent: broken failed: no file]",
      failed: true,
      display: "[ask_agent: broken failed: no file]",
    });
    assertEquals(c.agent.history.length, 1);
  });

  await t.step("/abort and /skip with nothing running; /quit and /exit leave", async () => {
    const { c } = conversation([]);
    assertEquals(await run(c, "/abort"), { kind: "said", text: NOTHING_TO_ABORT });
    assertEquals(NOTHING_TO_ABORT, "no turn is running: nothing to abort");
    assertEquals(await run(c, "/skip"), { kind: "said", text: NOTHING_TO_SKIP });
    assertEquals(NOTHING_TO_SKIP, "/skip answers a question; no question is waiting");
    assertEquals(await run(c, "/quit"), { kind: "quit" });
    assertEquals(await run(c, "/exit"), { kind: "quit" });
  });

  await t.step("an unknown command names the nearest; the editor's only its own", async () => {
    const { c } = conversation([]);
    assertEquals(await run(c, "/nwe"), {
      kind: "said",
      text: "unknown command /nwe — did you mean /new? (/help lists them)",
    });
    const editor = conversation([], { editor: true }).c;
    assertEquals(await run(editor, "/new"), {
      kind: "said",
      text: unknownCommandText("/new", true),
    });
  });

  await t.step("/think sets the thinking of the next requests, also after /new", async () => {
    const { c, requests } = conversation(["a", "b", "c"]);
    await c.agent.runTurn("hi", idle());
    assertEquals(requests[0].thinking, undefined);
    const off = await run(c, "/think off");
    assertEquals(outcomeLines(off), ["thinking off from the next request"]);
    await c.agent.runTurn("again", idle());
    assertEquals(requests[1].thinking, { thinking: "off", reasoningEffort: undefined });
    const high = await run(c, "/think HIGH");
    assertEquals(outcomeLines(high), ["thinking on, effort high from the next request"]);
    await run(c, "/new");
    await c.agent.runTurn("new", idle());
    assertEquals(requests[2].thinking, { thinking: "on", reasoningEffort: "high" });
    assertEquals(await run(c, "/think"), { kind: "said", text: THINK_USAGE });
    assertEquals(
      THINK_USAGE,
      "/think on|off|low|medium|high: whether the model thinks, and how hard",
    );
  });

  await t.step(
    "/plan toggles plan mode and the system prompt's paragraph, kept by /new",
    async () => {
      const { c, requests } = conversation(["a", "b", "c", "d"]);
      const system = () => requests.at(-1)!.messages[0].content;
      await c.agent.runTurn("hi", idle());
      assertEquals(system(), "You are a test.");
      assertEquals(c.plan, false);
      const on = await run(c, "/plan");
      assertEquals(outcomeLines(on), [PLAN_ON_TEXT]);
      assertEquals(c.plan, true);
      assertEquals(c.agent.plan, true);
      await c.agent.runTurn("plan it", idle());
      assertEquals(system(), `You are a test.\n\n${PLAN_MODE_PROMPT}\n`);
      await run(c, "/new");
      assertEquals(c.agent.plan, true);
      await c.agent.runTurn("new", idle());
      assertEquals(system(), `You are a test.\n\n${PLAN_MODE_PROMPT}\n`);
      const off = await run(c, "/plan off");
      assertEquals(outcomeLines(off), [PLAN_OFF_TEXT]);
      await c.agent.runTurn("go", idle());
      // Off, the system prompt is the same bytes as before plan mode.
      assertEquals(system(), "You are a test.");
      assertEquals(await run(c, "/plan ON"), { kind: "said", text: PLAN_ON_TEXT });
      assertEquals(await run(c, "/plan maybe"), { kind: "said", text: PLAN_USAGE });
      assertEquals(c.plan, true);
      assertEquals(
        PLAN_ON_TEXT,
        "plan mode on: only reading runs (files, searches, read-only commands); the model answers with a plan — /plan or Shift+Tab again to carry it out",
      );
      assertEquals(
        PLAN_OFF_TEXT,
        "plan mode off: the model may change files and run commands again (say go to carry out the plan)",
      );
      assertEquals(PLAN_USAGE, "/plan [on|off]: only reading runs while plan mode is on");
      assertEquals(
        PLAN_MODE_PROMPT,
        "# Plan mode\n\nPlan mode is on: only reading runs (read_file, lsp, searches, read-only commands like ls, cat, grep, git diff). Any other call is refused. Explore what the task touches, then answer with a short numbered plan: the files to change and how, and how to check it. The user switches plan mode off to carry it out.",
      );
    },
  );

  await t.step("! runs bash by hand, no request; the next prompt holds it", async () => {
    const bash: Tool<{ command: string }> = {
      name: "bash",
      kind: "execute",
      emoji: "🛠️",
      asks: false,
      declared: () => true,
      description: "Runs.",
      parameters: { command: { type: "string", description: "What." } },
      summary: (input) => input.command,
      run: (input) => Promise.resolve({ output: `ran ${input.command}` }),
    };
    const { c, events, requests } = conversation(["ok"], { tools: [bash] });
    assertEquals(parseCommand("!echo hi"), { name: "!", args: "echo hi" });
    assertEquals(await run(c, "!"), { kind: "said", text: BANG_USAGE });
    assertEquals(await run(c, "!echo hi"), { kind: "asked", answered: true });
    assertEquals(requests.length, 0);
    assertEquals(events.filter((e) => e.type === "tool_result").map((e) => e.output), [
      "ran echo hi",
    ]);
    await c.prompt("and now?", idle());
    assertEquals(requests.length, 1);
    assertEquals(
      requests[0].messages.findLast((m) => m.role === "user")?.content,
      `${ranText("echo hi", "ran echo hi")}\n\nand now?`,
    );
    assertEquals(ranText("ls", "a\nb"), "I ran: ls\na\nb");
  });

  await t.step("/model lists, switches, refuses a model the server lacks", async () => {
    const { c } = conversation([]);
    assertEquals(await run(c, "/model"), { kind: "said", text: MODEL_UNAVAILABLE });
    let current = "fake";
    let list: string[] | Error = ["fake", "qwen3:8b"];
    const { c: d, made } = conversation([], {
      models: {
        list: () => list instanceof Error ? Promise.reject(list) : Promise.resolve(list),
        current: () => current,
        switchTo: (name) => {
          current = name;
          return Promise.resolve();
        },
      },
    });
    assertEquals(outcomeLines(await run(d, "/model")), [
      "Models (* the current one):\n* fake\n  qwen3:8b",
    ]);
    await d.agent.addExchange("q", "a");
    const before = made.agents;
    assertEquals(await run(d, "/model qwen3:8b"), {
      kind: "said",
      text: "model qwen3:8b from the next request (the conversation is kept)",
    });
    assertEquals(current, "qwen3:8b");
    assertEquals(made.agents, before + 1);
    assertEquals(d.agent.history.map((m) => m.content), ["You are a test.", "q", "a"]);
    assertEquals(await run(d, "/model qwen3:7b"), {
      kind: "failed",
      text: "/model: the server has no model qwen3:7b — did you mean qwen3:8b? (/model lists them)",
    });
    list = [];
    assertEquals(await run(d, "/model"), { kind: "failed", text: MODEL_NONE });
    list = new ProviderError("http", "the server said no");
    assertEquals(await run(d, "/model"), { kind: "failed", text: "/model: the server said no" });
  });

  await t.step(
    "/resume lists this directory's sessions; N switches; busy and unreadable are said",
    async () => {
      const dir = await Deno.makeTempDir();
      const cwd = "/nowhere";
      const at = (minute: number) => `2026-12-02T15:0${minute}:00.000Z`;
      const file = (id: string, minute: number, question: string, where = cwd) => ({
        id,
        created: at(minute),
        updated: at(minute),
        cwd: where,
        provider: "openai",
        model: "qwen3:8b",
        messages: [{ role: "user" as const, content: question, turn: 1 }, {
          role: "assistant" as const,
          content: "done",
          turn: 1,
        }],
        errors: [],
      });
      await saveSession(dir, file("s-old", 1, "the older question"));
      await saveSession(dir, file("s-new", 2, "the newer question"));
      await saveSession(dir, file("s-busy", 3, "held elsewhere"));
      await saveSession(dir, file("s-other", 4, "another folder", "/elsewhere"));
      await saveSession(dir, file("s-mine", 5, "the one in use"));
      await Deno.writeTextFile(`${dir}/s-bad.json`, "{ not json");
      const held = await SessionLock.acquire(dir, "s-busy");
      const config = { ...defaultConfig(), url: target.url, model: target.model };
      config.sessions = { ...config.sessions, dir };
      const { chat } = fakeChat([]);
      const switched: string[] = [];
      let messages: { message: Message; turn: number }[] = [];
      const host: ConversationHost = {
        config,
        cwd,
        tools: [],
        agent: (earlier) =>
          new Agent({
            config,
            chat,
            tools: [],
            systemPrompt: "You are a test.",
            context: (signal) => fakeContext({ signal }),
            askPermission: () => Promise.resolve({ kind: "reject" }),
            emit: () => {},
          }, earlier ?? messages),
        session: () => "s-mine",
        resumeSession: (id) => {
          if (id === "s-gone") return Promise.reject(new SessionLockError(id, "/x", "gone"));
          switched.push(id);
          messages = [{ message: { role: "user", content: `q of ${id}` }, turn: 1 }];
          return Promise.resolve();
        },
        emit: () => {},
      };
      const c = new Conversation(host);
      try {
        const listed = await run(c, "/resume");
        assertEquals(listed.kind, "sessions");
        const lines = outcomeLines(listed);
        assertEquals(lines.slice(0, 3), [
          RESUME_HEAD,
          "   1. 2026-12-02 15:03  1 turn(s)  qwen3:8b  held elsewhere  [busy: in use by another mm (pid " +
          `${Deno.pid})]`,
          "   2. 2026-12-02 15:02  1 turn(s)  qwen3:8b  the newer question",
        ]);
        assertEquals(lines[3], "   3. 2026-12-02 15:01  1 turn(s)  qwen3:8b  the older question");
        assertEquals(lines[4].startsWith("   4. ⚠️ s-bad: unreadable (not valid JSON: "), true);
        assertEquals(lines[4].endsWith(") — not offered"), true);
        assertEquals(lines.length, 5);
        const busy = await run(c, "/resume 1");
        assertEquals(busy, {
          kind: "failed",
          text:
            `/resume: session s-busy is in use by another mm (pid ${Deno.pid}) — it was not resumed`,
        });
        const bad = await run(c, "/resume 4");
        assertEquals(bad.kind, "failed");
        assertEquals(
          outcomeLines(bad)[0].startsWith("/resume: the session file s-bad cannot be read ("),
          true,
        );
        assertEquals(await run(c, "/resume 9"), { kind: "said", text: resumeRangeText(4) });
        assertEquals(
          resumeRangeText(4),
          "/resume N: N is a session from 1 to 4 (/resume lists them)",
        );
        assertEquals(await Deno.readTextFile(`${dir}/s-bad.json`), "{ not json");
        assertEquals(switched, []);
        const resumed = await run(c, "/resume 3");
        assertEquals(resumed, { kind: "resumed", session: "s-old", earlier: 1 });
        assertEquals(outcomeLines(resumed), ["resumed session s-old (1 earlier message(s))"]);
        assertEquals(c.agent.history.at(-1)?.content, "q of s-old");
        assertEquals((await run(c, "/resume s-new")).kind, "resumed");
        assertEquals(switched, ["s-old", "s-new"]);
      } finally {
        await held.release();
        await Deno.remove(dir, { recursive: true });
      }
      const empty = await Deno.makeTempDir();
      config.sessions = { ...config.sessions, dir: empty };
      assertEquals(await run(new Conversation(host), "/resume"), {
        kind: "said",
        text: NO_SESSIONS_TEXT,
      });
      assertEquals(NO_SESSIONS_TEXT, "/resume: this directory has no earlier session");
      await Deno.remove(empty, { recursive: true });
      config.sessions = { ...config.sessions, enabled: false };
      assertEquals(await run(new Conversation(host), "/resume"), {
        kind: "said",
        text: RESUME_NEEDS_SESSIONS,
      });
    },
  );

  await t.step("every command of the table is run by a step above", () => {
    assertEquals(COMMANDS.map((x) => x.name), [
      "/help",
      "/new",
      "/compact",
      "/memory",
      "/ask",
      "/version",
      "/think",
      "/undo",
      "/rewind",
      "/plan",
      "/model",
      "!",
      "/resume",
      "/abort",
      "/skip",
      "/quit",
      "/exit",
    ]);
  });
});

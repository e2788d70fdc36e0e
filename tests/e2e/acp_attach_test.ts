/** Editor mode: a prompt's resource link attached as an `@` mention is (lib/agent/attach.ts). */

import { methods } from "npm:@agentclientprotocol/sdk@2.4.0";
import { pathToFileURL } from "node:url";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { Editor } from "../helpers/acp.ts";
import { workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

Deno.test("a resource link goes along with numbered lines", async () => {
  server.script("linked", [{ text: "Got it." }]);
  const dir = await workdir(`url: ${server.url}\nmodel: linked\n`);
  await Deno.writeTextFile(`${dir}/notes.txt`, "alpha\nbeta\n");
  const editor = await Editor.start({ cwd: dir });
  try {
    const sessionId = await editor.newSession(dir);
    const r = await editor.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [
        { type: "text", text: "summarise" },
        { type: "resource_link", name: "notes.txt", uri: pathToFileURL(`${dir}/notes.txt`).href },
      ],
    });
    assertEquals((r as { stopReason: string }).stopReason, "end_turn");
    const messages: { role: string; content: string }[] = server.chats("linked")[0].body.messages;
    const sent = messages.findLast((m) => m.role === "user")!.content;
    assertStringIncludes(sent, "summarise notes.txt");
    assertStringIncludes(sent, "--- @notes.txt ---\n1 │ alpha\n2 │ beta");
  } finally {
    await editor.close();
  }
});

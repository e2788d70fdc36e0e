/**
 * A session file on a full disk, through the real `mm -p` and a real tmpfs (root only): one
 * warning, no temporary file left, and the session saved whole at the first step that can be.
 */

import { assertEquals } from "../helpers/assert.ts";
import { runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { mountTmpfs, NO_TMPFS, tempFiles } from "../helpers/tmpfs.ts";

Deno.test({
  name:
    "mm -p with sessions.dir on a full disk: one warning, nothing left, saved once space is back",
  ignore: NO_TMPFS !== undefined,
  async fn() {
    const server = ScriptedServer.start();
    const fs = await mountTmpfs(512 * 1024);
    try {
      const model = "diskfull";
      server.script(model, [
        // 40 KB of output, more than is free: this step's save fails.
        {
          toolCalls: [{
            name: "bash",
            arguments: { command: "head -c 30000 /dev/urandom | base64" },
          }],
        },
        { toolCalls: [{ name: "bash", arguments: { command: "echo again" } }] },
        { text: "done" },
      ]);
      let filler = "";
      // The third request frees the space: the step after it is saved, whole.
      server.answer = () => {
        if (server.chats(model).length === 3) Deno.removeSync(filler);
        return undefined;
      };
      const dir = await workdir(
        `url: ${server.url}\nmodel: ${model}\nsessions:\n  enabled: true\n  dir: ${fs.dir}\n`,
      );
      // Room for the lock file and the first small saves, not for the tool's output.
      filler = await fs.fill(16 * 1024);
      const run = await runMM(["-p", "--yolo", "make a big output"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const warnings = run.stderr.split("\n").filter((l) => l.includes("cannot be written"));
      assertEquals(warnings.length, 1, run.stderr);
      assertEquals(
        warnings[0].includes("(no space left on device) — mm tries again at every step"),
        true,
        warnings[0],
      );
      assertEquals(await tempFiles(fs.dir), []);
      const names = [...Deno.readDirSync(fs.dir)].map((e) => e.name).filter((n) =>
        n.endsWith(".json")
      );
      assertEquals(names.length, 1);
      const saved = JSON.parse(await Deno.readTextFile(`${fs.dir}/${names[0]}`));
      assertEquals(saved.messages.map((m: { role: string }) => m.role), [
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
      ]);
      assertEquals(saved.messages.at(-1).content, "done");
    } finally {
      await fs.close();
      await server.close();
    }
  },
});

/** The banner of the terminal front ends (lib/frontend/terminal/banner.ts). */

import { assertEquals } from "../../helpers/assert.ts";
import { defaultConfig } from "../../../lib/config/config.ts";
import { banner } from "../../../lib/frontend/terminal/banner.ts";
import { VERSION } from "../../../lib/version.ts";
import type { SessionRecorder } from "../../../lib/session/recorder.ts";

Deno.test("banner", async (t) => {
  await t.step("without a sandbox: no sandbox line", () => {
    assertEquals(
      banner(defaultConfig(), "m", ["bash"]),
      `mm ${VERSION} · m @ ollama (http://localhost:11434)\n` +
        "tools: bash · yolo: on\n" +
        "Type a request; /help lists the commands; Ctrl-D quits.\n",
    );
  });
  await t.step("the session on its own line, after the tools", () => {
    const recorder = { session: { id: "20261202-150600-a1b2c3" } } as SessionRecorder;
    const tools = ["bash", "read_file", "write_file", "edit_file", "ask_user", "search_memory"];
    const lines = banner(defaultConfig(), "m", tools, recorder).split("\n");
    assertEquals(lines.slice(1, 3), [
      `tools: ${tools.join(", ")} · yolo: on`,
      "session 20261202-150600-a1b2c3",
    ]);
  });
  await t.step("a sandbox on says so, with its network", () => {
    const config = { ...defaultConfig(), sandbox: "workspace" as const };
    assertEquals(
      banner(config, "m", ["bash"]).split("\n")[2],
      "sandbox: workspace (bubblewrap), network on",
    );
    const closed = { ...defaultConfig(), sandbox: "readonly" as const, sandboxNetwork: false };
    assertEquals(
      banner(closed, "m", []).split("\n")[2],
      "sandbox: readonly (bubblewrap), network off",
    );
  });
});

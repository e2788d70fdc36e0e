/**
 * The terminal given back on every way out (lib/frontend/window/terminal.ts): a program that takes
 * it as window mode does, run in tmux, leaves by an uncaught error, a rejection, `Deno.exit` and
 * the signals; tmux must then report the main screen, no mouse reporting, the cursor shown.
 */

import { fileURLToPath } from "node:url";
import { ENTER_MODES, LEAVE_MODES, WindowTerminal } from "../../../lib/frontend/window/terminal.ts";
import { assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { runCases } from "../../helpers/cases.ts";
import { DENO_DIR, tempDir } from "../../helpers/mm.ts";
import { Terminal } from "../../helpers/tmux.ts";

const PROGRAM = fileURLToPath(new URL("../../helpers/window_exits.ts", import.meta.url));

/** Runs the program leaving by `way`; `kill` sends it a signal once the window is up. */
async function leave(way: string, kill?: Deno.Signal): Promise<string> {
  const dir = await tempDir();
  const term = await Terminal.start(
    [Deno.execPath(), "run", "--allow-all", "--no-config", "--quiet", PROGRAM, way],
    { cwd: dir, env: { HOME: dir, DENO_DIR, NO_COLOR: "1" } },
  );
  try {
    while (!(await term.modes()).alternate) await new Promise((r) => setTimeout(r, 20));
    assertEquals((await term.modes()).mouse, true);
    if (kill) Deno.kill(await term.pid(), kill);
    const screen = await term.waitFor(/\[exited \d+\]/);
    assertEquals(await term.modes(), { alternate: false, mouse: false, cursor: true });
    return screen;
  } finally {
    await term.kill();
  }
}

Deno.test("WindowTerminal", async (t) => {
  await t.step("enter and leave: the modes set, then undone; leave twice writes once", () => {
    const written: string[] = [];
    const raw: boolean[] = [];
    const term = new WindowTerminal({
      mouse: true,
      write: (s) => written.push(s),
      setRaw: (r) => raw.push(r),
    });
    term.enter();
    term.setMouse(false);
    term.leave();
    term.leave();
    assertEquals(written, [
      ENTER_MODES + "\x1b[?1000h\x1b[?1006h",
      "\x1b[?1006l\x1b[?1000l",
      LEAVE_MODES,
    ]);
    assertEquals(raw, [true, false]);
    for (const mode of ["?1049", "?2004", "?1000", "?1006"]) {
      assertStringIncludes(LEAVE_MODES, `\x1b[${mode}l`);
    }
    assertStringIncludes(LEAVE_MODES, "\x1b[?7h");
    assertStringIncludes(LEAVE_MODES, "\x1b[?25h");
  });
  await t.step("every way out gives the terminal back", async (t) => {
    await runCases(t, {
      "an uncaught error, printed on the main screen": async () => {
        const screen = await leave("throw");
        assertStringIncludes(screen, "boom from the window");
        assertStringIncludes(screen, "[exited 1]");
      },
      "an unhandled rejection": async () => {
        assertStringIncludes(await leave("reject"), "rejected in the window");
      },
      "Deno.exit": async () => {
        assertStringIncludes(await leave("exit"), "[exited 3]");
      },
      "SIGTERM": async () => {
        assertStringIncludes(await leave("wait", "SIGTERM"), "[exited 143]");
      },
      "SIGHUP": async () => {
        assertStringIncludes(await leave("wait", "SIGHUP"), "[exited 129]");
      },
      "SIGQUIT": async () => {
        assertStringIncludes(await leave("wait", "SIGQUIT"), "[exited 131]");
      },
    });
  });
});

/** Drives a terminal program in tmux: keys in with send-keys, the screen out with capture-pane. */

import { DENO_DIR, MAIN, stateHomeOf } from "./mm.ts";
import { TYPE_AHEAD_PAUSE } from "../../lib/frontend/window/focus.ts";

let counter = 0;

async function tmux(...args: string[]): Promise<string> {
  const out = await new Deno.Command("tmux", { args, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(`tmux ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

/**
 * A program running in its own tmux session, on a tmux server of its own (`-L`): sessions of
 * tests running side by side never meet a server that another test's last session is shutting
 * down.
 */
export class Terminal {
  readonly name: string;
  /** The tmux server's socket, removed with it. */
  #socket: string;
  /** Where tmux's bell hook counts the bells (./watchBells). */
  #bellFile: string | undefined;

  private constructor(name: string, socket: string) {
    this.name = name;
    this.#socket = socket;
  }

  /** Starts `argv` in `cwd` in a new detached tmux session of the given size. */
  static async start(
    argv: string[],
    opts: { cwd: string; env?: Record<string, string>; width?: number; height?: number },
  ): Promise<Terminal> {
    // Test files may share a process (workers): the random part keeps their names apart.
    const name = `mm-test-${Deno.pid}-${counter++}-${crypto.randomUUID().slice(0, 8)}`;
    // MM_TRUST: the agent file a test writes in its working directory is its own (the tests of
    // trust set it to "" to see mm ask).
    const env = Object.entries({
      MM_TRUST: "1",
      // Sessions are saved by default: into the test's own state folder, never the real one.
      XDG_STATE_HOME: stateHomeOf(opts.env?.HOME ?? opts.cwd),
      ...opts.env,
    }).map(([k, v]) => `${k}=${shellQuote(v)}`).join(" ");
    const command = `env ${env} ${argv.map(shellQuote).join(" ")}; echo "[exited $?]"; sleep 600`;
    await tmux(
      "-L",
      name,
      "new-session",
      "-d",
      "-s",
      name,
      "-x",
      String(opts.width ?? 100),
      "-y",
      String(opts.height ?? 40),
      "-c",
      opts.cwd,
      command,
    );
    const socket = (await tmux("-L", name, "display", "-p", "#{socket_path}")).trim();
    return new Terminal(name, socket);
  }

  /**
   * Starts the real `mm args…` from source in `dir` (its HOME), without colour, with `env` over
   * that: line mode when no argument says otherwise.
   */
  static mm(dir: string, args: string[] = [], env: Record<string, string> = {}): Promise<Terminal> {
    return Terminal.start(
      [Deno.execPath(), "run", "--allow-all", "--no-config", "--quiet", MAIN, ...args],
      { cwd: dir, env: { HOME: dir, NO_COLOR: "1", DENO_DIR, ...env } },
    );
  }

  /** Sends keys as tmux names them (`Enter`, `Escape`, `C-c`, `C-d`) or literal text with `-l`. */
  async keys(...keys: string[]): Promise<void> {
    await tmux("-L", this.name, "send-keys", "-t", this.name, ...keys);
  }

  /** Types `text` literally. */
  async type(text: string): Promise<void> {
    await tmux("-L", this.name, "send-keys", "-t", this.name, "-l", text);
  }

  /** The screen as text, trailing blank lines removed. */
  async screen(): Promise<string> {
    return (await tmux("-L", this.name, "capture-pane", "-t", this.name, "-p", "-J")).replace(
      /\s+$/,
      "",
    ) + "\n";
  }

  /** The screen with its colour escape sequences, as tmux keeps them. */
  async screenWithEscapes(): Promise<string> {
    return await tmux("-L", this.name, "capture-pane", "-t", this.name, "-p", "-e", "-J");
  }

  /** The pane's title, as a program sets it with an OSC 0 or 2 sequence. */
  async title(): Promise<string> {
    return (await tmux("-L", this.name, "display", "-p", "-t", this.name, "#{pane_title}")).trim();
  }

  /** Waits until the screen matches `pattern` (polling every 50 ms), or fails after `timeout` ms. */
  async waitFor(pattern: RegExp | string, timeout = 15_000): Promise<string> {
    const deadline = Date.now() + timeout;
    let screen = "";
    while (Date.now() < deadline) {
      screen = await this.screen();
      if (typeof pattern === "string" ? screen.includes(pattern) : pattern.test(screen)) {
        return screen;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${pattern} on the screen:\n${screen}`);
  }

  /**
   * Counts the bells the program rings from now on (tmux's `alert-bell` hook, which a BEL ending an
   * OSC sequence does not fire): read with {@linkcode Terminal.bells}.
   */
  async watchBells(): Promise<void> {
    this.#bellFile = await Deno.makeTempFile({ prefix: "mm-bells-" });
    await tmux(
      "-L",
      this.name,
      "set-hook",
      "-t",
      this.name,
      "alert-bell",
      `run-shell "echo >> ${this.#bellFile}"`,
    );
  }

  /** The bells rung since {@linkcode Terminal.watchBells}. */
  async bells(): Promise<number> {
    if (!this.#bellFile) throw new Error("watchBells() first");
    return (await Deno.readTextFile(this.#bellFile)).split("\n").length - 1;
  }

  /** Waits until at least `count` bells have rung (polling every 50 ms), or fails after `timeout` ms. */
  async waitForBells(count = 1, timeout = 10_000): Promise<void> {
    const deadline = Date.now() + timeout;
    while (Date.now() < deadline) {
      if (await this.bells() >= count) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${count} bell(s): ${await this.bells()} rung`);
  }

  /** The pid of the shell tmux started the program in (the program's parent). */
  async shellPid(): Promise<number> {
    return Number(
      (await tmux("-L", this.name, "display", "-p", "-t", this.name, "#{pane_pid}")).trim(),
    );
  }

  /** The terminal's modes as tmux keeps them: the alternate screen, mouse reporting, the cursor. */
  async modes(): Promise<{ alternate: boolean; mouse: boolean; cursor: boolean }> {
    const out = await tmux(
      "-L",
      this.name,
      "display",
      "-p",
      "-t",
      this.name,
      "#{alternate_on} #{mouse_any_flag} #{cursor_flag}",
    );
    const [alternate, mouse, cursor] = out.trim().split(" ").map((f) => f === "1");
    return { alternate, mouse, cursor };
  }

  /** Resizes the terminal. */
  async resize(width: number, height: number): Promise<void> {
    await tmux(
      "-L",
      this.name,
      "resize-window",
      "-t",
      this.name,
      "-x",
      String(width),
      "-y",
      String(height),
    );
  }

  /** The pid of the program started in the terminal (the child of its shell). */
  async pid(): Promise<number> {
    const shell = (await tmux("-L", this.name, "display", "-p", "-t", this.name, "#{pane_pid}"))
      .trim();
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const children = await Deno.readTextFile(`/proc/${shell}/task/${shell}/children`).catch(() =>
        ""
      );
      const first = children.trim().split(/\s+/)[0];
      if (first) return Number(first);
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error("the program in the terminal has no pid");
  }

  /** Ends the session and its programs. */
  async kill(): Promise<void> {
    await tmux("-L", this.name, "kill-server").catch(() => {});
    await Deno.remove(this.#socket).catch(() => {});
    if (this.#bellFile) await Deno.remove(this.#bellFile).catch(() => {});
  }
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", "'\\''")}'`;
}

/**
 * Waits the pause after which a permission box or form that just came up takes keys (window mode
 * keeps the keys of a user still typing for the input box until then): the behaviour's own time.
 */
export function boxTakesKeys(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, TYPE_AHEAD_PAUSE + 50));
}

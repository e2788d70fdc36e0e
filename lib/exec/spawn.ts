/**
 * The one way mm starts a child process (bash and declared tools, hooks, MCP stdio servers,
 * language servers, asked agents): {@linkcode spawnProcess} starts a program in a process group of
 * its own (lib/exec/group.ts), with mm's environment without its secrets (lib/child_env.ts), an
 * optional timeout and cancellation by an AbortSignal, both of which stop the whole group — SIGTERM,
 * then SIGKILL once {@linkcode KILL_GRACE} ms passed — and puts it on the one list of what mm kills
 * when it exits (lib/exec/registry.ts) until its user is done with it ({@linkcode Spawned.end}).
 * A kill also reaches the processes that left the group (`setsid`) where the machine lets them be
 * found (Linux: lib/exec/descendants.ts), recorded while the process lives.
 */

import { childEnv } from "../child_env.ts";
import { groupedSpawn, type Grouping, grouping, killGroup, killTree } from "./group.ts";
import { descendantsOf, mergeRecorded, type Proc, signalRecorded } from "./descendants.ts";
import { killAtExit } from "./registry.ts";

/** Milliseconds between SIGTERM and SIGKILL when a process group is stopped. */
export const KILL_GRACE = 500;

/** Why the starter stopped a process: its timeout, or its signal. */
export type StopReason = "timeout" | "cancel";

/** How a program is started. */
export interface SpawnOptions {
  /** The program and its arguments (a bare name is looked up on the PATH). */
  argv: string[];
  /** The working directory; mm's own when absent. */
  cwd?: string;
  /** Variables over mm's environment without its secrets. */
  env?: Record<string, string>;
  /** The whole environment instead, as given (its maker removed the secrets: lib/mcp/env.ts). */
  wholeEnv?: Record<string, string>;
  /** Each stream is `null` unless said otherwise. */
  stdin?: "piped" | "null";
  stdout?: "piped" | "null";
  stderr?: "piped" | "null";
  /** Milliseconds after which the group is stopped (`timeout`); none when absent, 0 or infinite. */
  timeout?: number;
  /** Stops the group (`cancel`) when aborted. */
  signal?: AbortSignal;
  /** Milliseconds between SIGTERM and SIGKILL of a stop; default {@linkcode KILL_GRACE}. */
  grace?: number;
  /** How the group is made; default {@linkcode grouping}'s choice for this machine. */
  how?: Grouping;
  /**
   * What mm does to the process when it exits before {@linkcode Spawned.end}: the signal sent to its
   * group (default SIGKILL), or `outlive` — it is not on the list, and mm does not wait for it.
   */
  atExit?: Deno.Signal | "outlive";
}

/**
 * Starts `opts.argv` (see the module comment). Throws what Deno throws when the spawn itself fails
 * (no such program without `setsid`, no permission); callers check first
 * for a text of their own (`startProblem`, lib/exec/program.ts).
 */
export async function spawnProcess(opts: SpawnOptions): Promise<Spawned> {
  const how = opts.how ?? await grouping();
  const spawn = groupedSpawn(opts.argv, how);
  const env = opts.wholeEnv ? { env: opts.wholeEnv, clearEnv: true } : childEnv(opts.env);
  // The only `new Deno.Command` of mm that starts a child it does not wait for at once
  // (scripts/check_imports.ts keeps them in lib/exec/; descendants.ts runs `cat` synchronously).
  const child = new Deno.Command(spawn.argv[0], {
    args: spawn.argv.slice(1),
    ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
    ...env,
    stdin: opts.stdin ?? "null",
    stdout: opts.stdout ?? "null",
    stderr: opts.stderr ?? "null",
    detached: spawn.detached,
  }).spawn();
  return new Spawned(child, opts);
}

/** A process started by {@linkcode spawnProcess}, leader of its group. */
export class Spawned {
  /** The process id, which is its group's id too. */
  readonly pid: number;
  /** Deno's child: its streams (those asked `piped`). */
  readonly child: Deno.ChildProcess;
  /** Settles when the process has exited and been reaped. */
  readonly status: Promise<Deno.CommandStatus>;
  /** Settles when a stop begins (the timeout, the signal, or {@linkcode stop}); never otherwise. */
  readonly halted: Promise<StopReason>;
  #stopped?: StopReason;
  #reaped = false;
  #ended = false;
  #grace: number;
  #halt!: (why: StopReason) => void;
  #timer?: ReturnType<typeof setTimeout>;
  #graceTimer?: ReturnType<typeof setTimeout>;
  #signal?: AbortSignal;
  #onAbort = () => this.stop("cancel");
  #forget: () => void = () => {};
  /** Whether its descendants outside the group are killed with it (not an agent's, nor a keeper's). */
  #tracks: boolean;
  #recorded: Proc[] = [];

  /** Watches `child` as `opts` say: see {@linkcode spawnProcess}. */
  constructor(child: Deno.ChildProcess, opts: SpawnOptions) {
    this.child = child;
    this.pid = child.pid;
    this.#grace = opts.grace ?? KILL_GRACE;
    this.halted = new Promise((resolve) => this.#halt = resolve);
    this.status = child.status;
    this.status.then(() => this.#reaped = true, () => this.#reaped = true);
    // A child agent stops its own descendants (SIGTERM); a keeper outlives mm with them.
    this.#tracks = opts.atExit === undefined || opts.atExit === "SIGKILL";
    if (opts.atExit === "outlive") {
      child.unref();
    } else {
      const sig = opts.atExit ?? "SIGKILL";
      this.#forget = killAtExit(() => this.kill(sig));
    }
    const timeout = opts.timeout;
    if (timeout !== undefined && Number.isFinite(timeout) && timeout > 0) {
      this.#timer = setTimeout(() => this.stop("timeout"), timeout);
    }
    if (opts.signal) {
      this.#signal = opts.signal;
      opts.signal.addEventListener("abort", this.#onAbort, { once: true });
      if (opts.signal.aborted) this.stop("cancel");
    }
  }

  /** Why the process was stopped, if it was. */
  get stopped(): StopReason | undefined {
    return this.#stopped;
  }

  /**
   * Stops the whole group: SIGTERM, then SIGKILL after the grace (and to what is left of the group
   * at {@linkcode end}). Only the first stop counts.
   */
  stop(why: StopReason = "cancel"): void {
    if (this.#stopped || this.#ended) return;
    this.#stopped = why;
    this.kill("SIGTERM");
    this.#graceTimer = setTimeout(() => this.kill("SIGKILL"), this.#grace);
    this.#halt(why);
  }

  /**
   * Sends `sig` to the group: to the process alone while it has made no group yet; once it has been
   * reaped, to what is left of its group only (its pid may be another's by then); nothing once
   * {@linkcode end}ed.
   */
  kill(sig: Deno.Signal): void {
    if (this.#ended) return;
    this.record();
    if (this.#reaped) killGroup(this.pid, sig);
    else killTree(this.pid, sig);
    signalRecorded(this.#recorded, sig);
  }

  /**
   * Notes the process's descendants as they are now (those that left its group included), for a
   * later kill to reach them once the chain that leads to it is broken (it exited, they were
   * reparented). Nothing once it was reaped, nor for a process whose descendants are its own
   * business (`atExit` SIGTERM or `outlive`).
   */
  record(): void {
    if (!this.#tracks || this.#reaped || this.#ended) return;
    this.#recorded = mergeRecorded(this.#recorded, descendantsOf(this.pid));
  }

  /**
   * Done with the process: the timeout and the signal no longer stop it, mm's exit no longer kills
   * it, and when it was stopped, what is left of its group is killed (SIGKILL). A group left
   * running after a normal exit (a background job) is left alone.
   */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#forget();
    clearTimeout(this.#timer);
    this.#signal?.removeEventListener("abort", this.#onAbort);
    if (this.#stopped) {
      clearTimeout(this.#graceTimer);
      killGroup(this.pid, "SIGKILL");
      signalRecorded(this.#recorded, "SIGKILL");
    }
  }
}

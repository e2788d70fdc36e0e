/**
 * `deno run --allow-all scripts/bench/undo.ts [RUNS]`: what undo costs a turn in a git repository
 * of 10,000 files (not a test). A turn that runs a command keeps the work tree before it and looks
 * at it again after it (`TurnKeeper.begin`, `beforeCall` of a command, `end`, as the core calls
 * them): a tracked file as git's index has it is kept by its blob id (nothing read), a changed or
 * untracked one is read and kept, and only when its size or time changed since the last manifest
 * (here one file per turn). The first turn of a session, then later turns: median and 90th
 * percentile of a turn's extra wall time, and the bytes the store holds. docs/performance.md
 * ("Undo") gives the figures; `scripts/bench/run.ts` prints them too.
 */

import { TurnKeeper } from "../../lib/undo/keeper.ts";
import { UndoStore } from "../../lib/undo/store.ts";
import type { AnyTool } from "../../lib/tool.ts";

/** Files of the repository. */
export const FILES = 10_000;

/** What the benchmark found. */
export interface UndoBench {
  /** The first turn: git asked, the changed and untracked files kept (ms). */
  first: number;
  /** Later turns, one file changed each: median and 90th percentile (ms). */
  median: number;
  p90: number;
  /** Bytes of the repository's files, and of the store after every turn. */
  repoBytes: number;
  storeBytes: number;
}

const command = { touches: () => "tree" } as unknown as AnyTool;

/** Runs the benchmark: a repository of {@linkcode FILES} files, RUNS turns after the first. */
export async function benchUndo(runs: number): Promise<UndoBench> {
  const dir = await Deno.makeTempDir({ prefix: "mm-bench-undo-" });
  try {
    let repoBytes = 0;
    for (let d = 0; d < 100; d++) {
      await Deno.mkdir(`${dir}/src/m${d}`, { recursive: true });
      for (let f = 0; f < FILES / 100; f++) {
        const text = `// module ${d}/${f}\nexport const value${f} = ${d * f};\n`.repeat(20);
        repoBytes += text.length;
        await Deno.writeTextFile(`${dir}/src/m${d}/f${f}.ts`, text);
      }
    }
    // The files committed (a repository as a user has it), one more left untracked.
    const git = (...args: string[]) =>
      new Deno.Command("git", {
        args: ["-c", "user.name=bench", "-c", "user.email=bench@example.com", ...args],
        cwd: dir,
      }).output();
    await git("init", "-q");
    await git("add", "src");
    await git("commit", "-q", "-m", "start");
    await Deno.writeTextFile(`${dir}/notes.txt`, "untracked\n");
    const sessions = `${dir}/.mm/sessions`;
    await Deno.mkdir(sessions, { recursive: true });
    await Deno.writeTextFile(`${sessions}/s.json`, "{}");
    const store = new UndoStore(`${sessions}/s.undo`);
    const keeper = new TurnKeeper({ store, cwd: dir, sessions });
    const turn = async (n: number) => {
      const t0 = performance.now();
      await keeper.begin(n, "bench");
      await keeper.beforeCall(command, {});
      const t1 = performance.now();
      await Deno.writeTextFile(`${dir}/src/m0/f${n % 100}.ts`, `// turn ${n}\n`);
      const t2 = performance.now();
      await keeper.end();
      return t1 - t0 + performance.now() - t2;
    };
    const first = await turn(1);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push(await turn(i + 2));
    times.sort((a, b) => a - b);
    let storeBytes = 0;
    const walk = async (d: string) => {
      for await (const e of Deno.readDir(d)) {
        if (e.isDirectory) await walk(`${d}/${e.name}`);
        else storeBytes += (await Deno.stat(`${d}/${e.name}`)).size;
      }
    };
    await walk(store.dir);
    return {
      first,
      median: times[Math.floor(times.length / 2)],
      p90: times[Math.min(times.length - 1, Math.floor(times.length * 0.9))],
      repoBytes,
      storeBytes,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const r = await benchUndo(Number(Deno.args[0] ?? 15));
  console.log(
    `${FILES} files (${(r.repoBytes / 1e6).toFixed(1)} MB): first turn ${r.first.toFixed(0)} ms; ` +
      `later turns median ${r.median.toFixed(0)} ms, p90 ${r.p90.toFixed(0)} ms; ` +
      `store ${(r.storeBytes / 1e6).toFixed(1)} MB`,
  );
}

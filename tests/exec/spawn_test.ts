/** The one starter (lib/exec/spawn.ts): its own group, a clean environment, the stops, the registry. */

import { join } from "node:path";
import { assertEquals } from "../helpers/assert.ts";
import { gone, tempDir } from "../helpers/mm.ts";
import { grouping } from "../../lib/exec/group.ts";
import { runningCount } from "../../lib/exec/registry.ts";
import { type Spawned, type SpawnOptions, spawnProcess } from "../../lib/exec/spawn.ts";
import { addSecret } from "../../lib/secrets.ts";

/** Starts `script` in bash with stdout piped; returns the process and its whole stdout. */
async function bash(
  script: string,
  opts: Partial<SpawnOptions> = {},
): Promise<{ process: Spawned; out: Promise<string> }> {
  const process = await spawnProcess({ argv: ["bash", "-c", script], stdout: "piped", ...opts });
  return { process, out: new Response(process.child.stdout).text() };
}

/** The first line process `process` printed: a pid, once it has started its job. */
async function firstLine(process: Spawned): Promise<string> {
  const reader = process.child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  reader.releaseLock();
  return text.split("\n")[0];
}

for (const how of ["setsid", "detached"] as const) {
  Deno.test(`spawnProcess: ${how}`, async (t) => {
    if (how === "setsid" && await grouping() !== "setsid") {
      throw new Error("setsid is not on the PATH of this machine: these steps cannot run");
    }

    await t.step("the program leads its own session and process group", async () => {
      const { process, out } = await bash(
        'read -r stat < /proc/$$/stat; set -- ${stat##*) }; echo "$$ $3 $4"',
        { how },
      );
      const [pid, pgid, sid] = (await out).trim().split(" ");
      assertEquals([pid, pgid, sid], [String(process.pid), pid, pid]);
      assertEquals((await process.status).code, 0);
      process.end();
    });

    await t.step("a timeout stops the whole group (SIGTERM)", async () => {
      const process = await spawnProcess({
        argv: ["bash", "-c", "sleep 100 & echo $!; sleep 100"],
        stdout: "piped",
        how,
        timeout: 200,
      });
      const job = await firstLine(process);
      const status = await process.status;
      process.end();
      assertEquals([process.stopped, status.signal], ["timeout", "SIGTERM"]);
      assertEquals(await gone(job), true);
    });

    await t.step("a program that ignores SIGTERM gets SIGKILL after the grace", async () => {
      const process = await spawnProcess({
        argv: ["bash", "-c", "trap '' TERM; sleep 100"],
        how,
        timeout: 50,
        grace: 100,
      });
      const status = await process.status;
      process.end();
      assertEquals([process.stopped, status.signal], ["timeout", "SIGKILL"]);
    });

    await t.step("an abort stops the group; an aborted signal stops it at once", async () => {
      const controller = new AbortController();
      const process = await spawnProcess({
        argv: ["bash", "-c", "sleep 100 & echo $!; wait"],
        stdout: "piped",
        how,
        signal: controller.signal,
      });
      const job = await firstLine(process);
      controller.abort();
      assertEquals(await process.halted, "cancel");
      await process.status;
      process.end();
      assertEquals(process.stopped, "cancel");
      assertEquals(await gone(job), true);
      const early = await spawnProcess({ argv: ["sleep", "100"], how, signal: controller.signal });
      assertEquals((await early.status).signal, "SIGTERM");
      early.end();
    });

    await t.step("a normal exit leaves a background job alone", async () => {
      const { process, out } = await bash("sleep 100 >/dev/null 2>&1 & echo $!", { how });
      await process.status;
      process.end();
      const job = Number((await out).trim());
      try {
        assertEquals(await gone(String(job)), false); // still there after 2 s
      } finally {
        Deno.kill(job, "SIGKILL");
      }
    });
  });
}

Deno.test("spawnProcess: the environment is mm's without its secrets, or the one given", async () => {
  Deno.env.set("MM_SPAWN_TEST_SECRET", "s3cret-of-the-spawn-test");
  addSecret("s3cret-of-the-spawn-test");
  Deno.env.set("MM_SPAWN_TEST_PLAIN", "plain");
  try {
    const script = 'echo "${MM_SPAWN_TEST_SECRET-none} ${MM_SPAWN_TEST_PLAIN-none} ${EXTRA-none}"';
    const cleaned = await bash(script, { env: { EXTRA: "extra" } });
    assertEquals(await cleaned.out, "none plain extra\n");
    cleaned.process.end();
    const whole = await spawnProcess({
      argv: ["/bin/sh", "-c", script],
      stdout: "piped",
      wholeEnv: { EXTRA: "only" },
    });
    assertEquals(await new Response(whole.child.stdout).text(), "none none only\n");
    whole.end();
  } finally {
    Deno.env.delete("MM_SPAWN_TEST_SECRET");
    Deno.env.delete("MM_SPAWN_TEST_PLAIN");
  }
});

Deno.test("spawnProcess: on the registry until ended, unless it outlives mm", async () => {
  const before = runningCount();
  const process = await spawnProcess({ argv: ["true"] });
  assertEquals(runningCount(), before + 1);
  await process.status;
  assertEquals(runningCount(), before + 1); // a server's group stays on it until closed
  process.end();
  assertEquals(runningCount(), before);
  await spawnProcess({ argv: ["true"], atExit: "outlive" }); // not awaited: unref'd
  assertEquals(runningCount(), before);
});

Deno.test("the registry: what is left running when mm exits is killed, each its own way", async () => {
  const dir = await tempDir("mm-registry-");
  const termFile = join(dir, "term");
  const spawn = JSON.stringify(new URL("../../lib/exec/spawn.ts", import.meta.url).href);
  const code = `
    import { spawnProcess } from ${spawn};
    const plain = await spawnProcess({ argv: ["sleep", "100"] });
    const polite = await spawnProcess({
      argv: ["bash", "-c", 'trap "echo TERM > $1; exit 0" TERM; echo; while :; do sleep 0.05; done', "-", ${
    JSON.stringify(termFile)
  }],
      stdout: "piped",
      atExit: "SIGTERM",
    });
    await polite.child.stdout.getReader().read(); // its trap is set
    const left = await spawnProcess({ argv: ["sleep", "100"], atExit: "outlive" });
    console.log(plain.pid, polite.pid, left.pid);
    Deno.exit(0);
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", code],
    stdin: "null",
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  const [plain, polite, left] = new TextDecoder().decode(out.stdout).trim().split(" ");
  try {
    assertEquals(await gone(plain), true);
    assertEquals(await gone(polite), true);
    assertEquals((await Deno.readTextFile(termFile)).trim(), "TERM");
    Deno.kill(Number(left), "SIGCONT"); // still there: it outlives mm on purpose
  } finally {
    try {
      Deno.kill(Number(left), "SIGKILL");
    } catch {
      // gone already: the assertion above said so
    }
  }
});

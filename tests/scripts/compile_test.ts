/** scripts/compile.ts: the targets, the permission flags, the commit it bakes in, the checksums. */

import { assertEquals, assertMatch } from "../helpers/assert.ts";
import {
  buildInfoSource,
  checksums,
  compileArgs,
  INCLUDED,
  outputName,
  PERMISSIONS,
  TARGETS,
} from "../../scripts/compile.ts";

const ROOT = new URL("../../", import.meta.url);

Deno.test("deno task compile", async (t) => {
  await t.step("five targets, dist/mm-<target>, .exe on Windows", () => {
    assertEquals(TARGETS.map(outputName), [
      "mm-x86_64-unknown-linux-gnu",
      "mm-aarch64-unknown-linux-gnu",
      "mm-x86_64-apple-darwin",
      "mm-aarch64-apple-darwin",
      "mm-x86_64-pc-windows-msvc.exe",
    ]);
  });

  await t.step("the MCP SDK, imported through a constant, is included by name", () => {
    const args = compileArgs(TARGETS[0]);
    const at = args.indexOf("--include");
    assertEquals(args.slice(at, at + 2), ["--include", "npm:@modelcontextprotocol/client@2.4.0"]);
    assertEquals(INCLUDED, ["npm:@modelcontextprotocol/client@2.4.0"]);
  });

  await t.step("never -A: each permission named, and no prompt", () => {
    for (const target of TARGETS) {
      const args = compileArgs(target);
      assertEquals(args.includes("-A") || args.includes("--allow-all"), false);
      assertEquals(args.filter((a) => a.startsWith("--allow-") || a === "--no-prompt"), [
        ...PERMISSIONS,
      ]);
      assertEquals(args.slice(-5), [
        "--target",
        target,
        "--output",
        `dist/${outputName(target)}`,
        "main.ts",
      ]);
    }
    assertEquals([...PERMISSIONS], [
      "--allow-read",
      "--allow-write",
      "--allow-run",
      "--allow-net",
      "--allow-env",
      "--allow-sys=uid,gid",
      "--no-prompt",
    ]);
  });

  await t.step("every flag is documented in docs/security.md", async () => {
    const doc = await Deno.readTextFile(new URL("docs/security.md", ROOT));
    for (const flag of PERMISSIONS) {
      assertEquals(doc.includes(`\`${flag}\``), true, `${flag} is not in docs/security.md`);
    }
  });

  await t.step("the commit goes into lib/build_info.ts, which is tracked as dev", async () => {
    const original = await Deno.readTextFile(new URL("lib/build_info.ts", ROOT));
    assertMatch(original, /export const COMMIT = "dev";/);
    const built = buildInfoSource(original, "abc1234");
    assertMatch(built, /export const COMMIT = "abc1234";/);
    assertEquals(built.replace("abc1234", "dev"), original);
    let refused = false;
    try {
      buildInfoSource(original, 'x"; Deno.exit(); "');
    } catch {
      refused = true;
    }
    assertEquals(refused, true);
  });

  await t.step("--dry-run prints the five commands and writes nothing", async () => {
    const before = await Deno.readTextFile(new URL("lib/build_info.ts", ROOT));
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", "--quiet", "scripts/compile.ts", "--dry-run"],
      cwd: ROOT,
      env: { MM_COMMIT: "0123456789abcdef" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
    assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
    assertEquals(lines[0], "commit 0123456");
    assertEquals(lines.slice(1), TARGETS.map((t) => `deno ${compileArgs(t).join(" ")}`));
    assertEquals(await Deno.readTextFile(new URL("lib/build_info.ts", ROOT)), before);
  });

  await t.step("SHA256SUMS in sha256sum's format", async () => {
    const dir = await Deno.makeTempDir();
    await Deno.writeTextFile(`${dir}/mm-b`, "hello\n");
    await Deno.writeTextFile(`${dir}/mm-a`, "");
    assertEquals(
      await checksums(dir, ["mm-b", "mm-a"]),
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  mm-a\n" +
        "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  mm-b\n",
    );
    await Deno.remove(dir, { recursive: true });
  });
});

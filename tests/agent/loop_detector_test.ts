import {
  cycleStoppedText,
  isRunaway,
  LOOP_DETECTED,
  LoopDetector,
  loopStoppedText,
  RUNAWAY_WINDOW,
  runawayText,
} from "../../lib/agent/loop_detector.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("the loop detector's texts are the spec's", () => {
  assertEquals(
    LOOP_DETECTED,
    "[LOOP_DETECTED: You have attempted the same action multiple times with the same result. Please try a different approach or provide more information.]",
  );
  assertEquals(
    loopStoppedText("edit_file"),
    "[error: the model repeated the same edit_file call 6 times in a row with the same failing result — turn stopped by the loop detector; rephrase the request, or fix what the tool kept reporting]",
  );
});

Deno.test("LoopDetector counts identical triples in a row", async (t) => {
  await t.step("3 in a row warns, 6 stops", () => {
    const d = new LoopDetector();
    const verdicts = Array.from({ length: 6 }, () => d.record("bash", { command: "x" }, "out"));
    assertEquals(verdicts, ["ok", "ok", "warn", "warn", "warn", "stop"]);
  });
  await t.step("a different call starts the count again", () => {
    const d = new LoopDetector();
    d.record("bash", { command: "x" }, "out");
    d.record("bash", { command: "x" }, "out");
    assertEquals(d.record("bash", { command: "x" }, "other output"), "ok");
    assertEquals(d.record("bash", { command: "x" }, "other output"), "ok");
    assertEquals(d.record("bash", { command: "x" }, "other output"), "warn");
  });
  await t.step("reset forgets", () => {
    const d = new LoopDetector();
    d.record("bash", {}, "o");
    d.record("bash", {}, "o");
    d.reset();
    assertEquals(d.record("bash", {}, "o"), "ok");
  });
});

Deno.test("LoopDetector sees cycles of two to four calls with the same outputs", async (t) => {
  const tool = (name: string) =>
    name === "edit" ? "edit_file" : name === "read" ? "read_file" : "bash";
  const call = (d: LoopDetector, name: string, output = `${name} out`) =>
    d.record(tool(name), { what: name }, output);
  // Each row: the cycle, then the verdict of each call (o ok, w warn, s stop).
  const rows: [string, string[], string][] = [
    ["read, edit: warns at its 3rd coming, stops at its 6th", ["read", "edit"], "ooooowwwwwws"],
    ["read, edit, test", ["read", "edit", "test"], "oooooooowwwwwwwwws"],
    ["four calls", ["a", "b", "c", "d"], "ooooooooooowwwwwwwwwwwws"],
  ];
  for (const [name, cycle, expected] of rows) {
    await t.step(name, () => {
      const d = new LoopDetector();
      const got = Array.from(expected, (_, i) => call(d, cycle[i % cycle.length])[0]).join("");
      assertEquals(got, expected);
      assertEquals(d.stoppedText("bash", false), cycleStoppedText(cycle.map(tool)));
    });
  }
  await t.step("a cycle whose outputs change is no loop", () => {
    const d = new LoopDetector();
    const verdicts = Array.from({ length: 12 }, (_, i) => call(d, i % 2 ? "edit" : "read", `${i}`));
    assertEquals(verdicts.every((v) => v === "ok"), true);
  });
  await t.step("one call repeated is named as the spec says, not as a cycle", () => {
    const d = new LoopDetector();
    for (let i = 0; i < 6; i++) call(d, "edit");
    assertEquals(d.stoppedText("edit_file", true), loopStoppedText("edit_file"));
  });
  await t.step("the texts", () => {
    assertEquals(
      cycleStoppedText(["read_file", "edit_file"]),
      "[error: the model repeated the same 2 calls (read_file, edit_file) 6 times over with the same results — turn stopped by the loop detector; rephrase the request, or fix what the tool kept reporting]",
    );
  });
});

Deno.test("isRunaway", async (t) => {
  await t.step("a 4-character pattern over the last 6 KiB", () => {
    assertEquals(isRunaway('{"content": "' + "abcd".repeat(1600)), true);
  });
  await t.step("a 64-character pattern", () => {
    const p = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-";
    assertEquals(p.length, 64);
    assertEquals(isRunaway(p.repeat(100)), true);
  });
  await t.step("a 65-character pattern is not one", () => {
    const p = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-+";
    assertEquals(isRunaway(p.repeat(100)), false);
  });
  await t.step("a pattern with a shorter period still repeats a 4–64-character one", () => {
    assertEquals(isRunaway("la la ".repeat(1100)), true);
    assertEquals(isRunaway("=".repeat(RUNAWAY_WINDOW)), true);
  });
  // Ordinary data a tool call writes: each of these was stopped at 256 characters before.
  const ordinary: [string, string][] = [
    ["a JSON array of 151 zeros", `{"content": "[${Array(151).fill(0).join(", ")}]"}`],
    ["a 300-character = rule", `{"content": "${"=".repeat(300)}\\n"}`],
    ["12 identical table rows", `{"content": "${"| a | b | c | d | e | f | g |\\n".repeat(12)}"}`],
    ["a base64 run of 4 KiB", `{"content": "${"A".repeat(4096)}=="`],
    ["a phrase said 60 times", `{"text": "${"hello world, ".repeat(60)}`],
  ];
  for (const [name, args] of ordinary) {
    await t.step(
      `ordinary data is no runaway: ${name}`,
      () => assertEquals(isRunaway(args), false),
    );
  }
  await t.step("a real runaway is stopped within 8 KiB of repetition", () => {
    for (const unit of ["0, ", "=", "| a | b |\\n", "AAAA", "la la "]) {
      let args = '{"content": "';
      let at = -1;
      for (let i = 0; i < 20_000 && at < 0; i++) {
        args += unit;
        if (isRunaway(args)) at = i * unit.length;
      }
      assertEquals(at > 0 && at <= 8 * 1024, true, `${unit}: stopped at ${at}`);
    }
  });
  await t.step("ordinary code does not run away", () => {
    const code = Array.from({ length: 40 }, (_, i) => `line ${i}: x = ${i * 7};`).join("\\n");
    assertEquals(isRunaway(code), false);
  });
  await t.step("more than 256 KB runs away", () => {
    assertEquals(isRunaway("x".repeat(256 * 1024 + 1)), true);
  });
  await t.step("the text names the size and ends as the spec says", () => {
    const args = "abcd".repeat(70);
    const text = runawayText(args);
    assertEquals(
      text.startsWith(
        "[error: the model's tool call ran away: its arguments repeat the same pattern (280 characters so far: …",
      ),
      true,
    );
    assertEquals(
      text.endsWith(") — generation stopped; rephrase the request, or try another model]"),
      true,
    );
  });
});

/** How a command's output ends for the model (tools/_command.ts). */

import { commandOutput } from "../../tools/_command.ts";
import { binaryOutputText } from "../../tools/_readable.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("commandOutput", async (t) => {
  await t.step("made readable, then cut, then the exit line", () => {
    const result = { output: "\0".repeat(100), code: 0, timedOut: false, cancelled: false };
    assertEquals(commandOutput(result, 30_000, 16_000), { output: binaryOutputText(100) });
    const failed = { output: "\x1b[31mboom\x1b[0m\n", code: 2, timedOut: false, cancelled: false };
    assertEquals(commandOutput(failed, 30_000, 16_000), {
      output: "boom\n[exit code: exit status 2]",
      failed: true,
    });
  });
});

/** Window mode's rewind list (Esc Esc): each number shown once, the form's own. */

import { turnOptions } from "../../../lib/frontend/window/window.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("the rewind list's options drop the turn number the form's numbering repeats", () => {
  assertEquals(
    turnOptions([
      { turn: 1, line: "  1  00:41  first  (no files changed)" },
      { turn: 2, line: "  2  00:42  second  (a.txt)" },
    ]),
    ["00:41  first  (no files changed)", "00:42  second  (a.txt)"],
  );
  // A turn whose number is not its place in the list keeps it.
  assertEquals(turnOptions([{ turn: 3, line: "  3  --:--  third  (files not kept)" }]), [
    "3  --:--  third  (files not kept)",
  ]);
});

import { assertEquals } from "../../helpers/assert.ts";
import { random } from "../../../scripts/bench/random.ts";

Deno.test("the same seed gives the same numbers", () => {
  const a = random(17);
  const b = random(17);
  const first = Array.from({ length: 5 }, a);
  assertEquals(first, Array.from({ length: 5 }, b));
  assertEquals(first.every((x) => x >= 0 && x < 1), true);
});

/** The fuzzer of the tools, a short fixed-seed run: nothing uncaught, nothing hung, memory bounded. */

import { assertEquals } from "../../helpers/assert.ts";
import { fuzz } from "../../../scripts/bench/fuzz_tools.ts";

Deno.test("fuzzing the tools through prepareCall and a real context (seed 17, 2000 calls)", async () => {
  const report = await fuzz(2_000, 17);
  assertEquals(report.calls, 2_000);
  assertEquals(report.uncaught, []);
  assertEquals(report.hangs, []);
  // Bounded: a device read to its end, or a query's pattern, took gigabytes before.
  assertEquals(report.peakRss < 1024 * 1024 * 1024, true, `${report.peakRss} bytes`);
  // Both kinds of calls were made: refused by the validation, and run.
  assertEquals(report.refused > 0 && report.refused < report.calls, true);
});

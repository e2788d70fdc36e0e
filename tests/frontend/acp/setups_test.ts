/** What editor mode's sessions share per configuration (lib/frontend/acp/setups.ts). */

import { defaultConfig } from "../../../lib/config/config.ts";
import { Setups } from "../../../lib/frontend/acp/setups.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("Setups: one per configuration, whatever folder gave it", async () => {
  const setups = new Setups(() => {}, () => {});
  const cwd = Deno.cwd();
  try {
    const first = setups.for(defaultConfig(), cwd);
    assertEquals(setups.for(defaultConfig(), "/"), first);
    const other = setups.for({ ...defaultConfig(), model: "another" }, cwd);
    assertEquals(other === first, false);
    assertEquals([first.config.model, other.config.model], [defaultConfig().model, "another"]);
  } finally {
    await setups.close();
  }
});

/** Line mode's keys (lib/frontend/line/keys.ts): the router that hands each key to one listener. */

import { KeyRouter } from "../../../lib/frontend/line/keys.ts";
import type { Key } from "../../../lib/frontend/terminal/keys.ts";
import { assertEquals } from "../../helpers/assert.ts";

const text = (t: string): Key => ({ name: "text", text: t });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

Deno.test("KeyRouter", async (t) => {
  await t.step("a key goes to the innermost listener only", () => {
    const router = new KeyRouter();
    const outer: Key[] = [];
    const inner: Key[] = [];
    router.push((k) => outer.push(k));
    const release = router.push((k) => inner.push(k));
    router.dispatch(text("a"));
    release();
    router.dispatch(text("b"));
    assertEquals([inner, outer], [[text("a")], [text("b")]]);
  });
  await t.step("a key that comes while nobody listens waits for the next listener", async () => {
    const router = new KeyRouter();
    router.dispatch({ name: "ctrl-c" });
    router.dispatch(text("x"));
    const got: Key[] = [];
    router.push((k) => got.push(k));
    router.dispatch(text("y"));
    await tick();
    assertEquals(got, [{ name: "ctrl-c" }, text("x"), text("y")]);
  });
  await t.step("deferred keys come before the keys typed after them", async () => {
    const router = new KeyRouter();
    router.defer([text("/new"), { name: "enter" }]);
    router.dispatch(text("later"));
    const got: Key[] = [];
    router.push((k) => got.push(k));
    await tick();
    assertEquals(got, [text("/new"), { name: "enter" }, text("later")]);
  });
});

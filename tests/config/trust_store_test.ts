/** The trust store (lib/config/trust_store.ts): atomic, locked, never overwritten when broken. */

import { join } from "node:path";
import {
  isTrusted,
  readTrustStore,
  revokeFolder,
  trustFolder,
  TrustStoreError,
  trustStorePath,
} from "../../lib/config/trust_store.ts";
import { assertEquals, assertRejects, assertThrows } from "../helpers/assert.ts";

const record = (folder: string) => ({
  folder,
  file: `${folder}/mm.yaml`,
  hash: "h",
  trustedAt: "t",
});

Deno.test("trust store", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "mm-trust-" });
  const path = join(dir, "mm", "trusted.json");
  try {
    await t.step("where: $XDG_CONFIG_HOME, else ~/.config", () => {
      assertEquals(trustStorePath({ XDG_CONFIG_HOME: "/x" }), "/x/mm/trusted.json");
      assertEquals(trustStorePath({ HOME: "/h" }), "/h/.config/mm/trusted.json");
    });
    await t.step("recorded, looked up, revoked; no temporary file left", async () => {
      assertEquals(readTrustStore(path), []);
      await trustFolder(path, record("/a"));
      assertEquals(isTrusted(path, "/a", "/a/mm.yaml", "h"), true);
      assertEquals(isTrusted(path, "/a", "/a/mm.yaml", "other"), false);
      assertEquals(await revokeFolder(path, "/a"), true);
      assertEquals(isTrusted(path, "/a", "/a/mm.yaml", "h"), false);
      assertEquals(await revokeFolder(path, "/a"), false);
      const names = [...Deno.readDirSync(join(dir, "mm"))].map((e) => e.name).sort();
      assertEquals(names, ["trusted.json", "trusted.json.lock"]);
    });
    await t.step("many trusting at once: no record lost", async () => {
      const folders = Array.from({ length: 20 }, (_, i) => `/f${i}`);
      await Promise.all(folders.map((f) => trustFolder(path, record(f))));
      assertEquals(readTrustStore(path).map((r) => r.folder).sort(), folders.sort());
    });
    await t.step("a store that is not JSON: reported, and left as it is", async () => {
      await Deno.writeTextFile(path, "{nope");
      assertThrows(() => readTrustStore(path), TrustStoreError);
      await assertRejects(() => trustFolder(path, record("/b")), TrustStoreError);
      assertEquals(await Deno.readTextFile(path), "{nope");
    });
    await t.step("a folder that cannot be made: a clear error, nothing written", async () => {
      await Deno.writeTextFile(join(dir, "plain"), "");
      const e = await assertRejects(
        () => trustFolder(join(dir, "plain", "mm", "trusted.json"), record("/c")),
        TrustStoreError,
      );
      assertEquals(
        e.message.startsWith(`cannot write the trust store ${dir}/plain/mm/trusted.json: `),
        true,
      );
      assertEquals(await Deno.readTextFile(join(dir, "plain")), "");
    });
    await t.step("a read-only folder: a clear error, nothing written", async () => {
      if (Deno.uid() === 0) return; // root writes anywhere
      const ro = join(dir, "ro");
      await Deno.mkdir(ro);
      await Deno.chmod(ro, 0o500);
      const e = await assertRejects(
        () => trustFolder(join(ro, "trusted.json"), record("/c")),
        TrustStoreError,
      );
      assertEquals(e.message.startsWith(`cannot write the trust store ${ro}/trusted.json: `), true);
      assertEquals([...Deno.readDirSync(ro)], []);
      await Deno.chmod(ro, 0o700);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

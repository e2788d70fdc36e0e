/** Where Deno keeps an npm package, as lib/npm_cache.ts finds it. */

import { denoDir, npmCachePath, npmPackage } from "../lib/npm_cache.ts";
import { assertEquals, assertThrows } from "./helpers/assert.ts";

Deno.test("npm_cache", async (t) => {
  await t.step("npmPackage: scoped or not, a subpath ignored, another specifier undefined", () => {
    assertEquals(npmPackage("npm:@modelcontextprotocol/client@2.4.0"), {
      name: "@modelcontextprotocol/client",
      version: "2.4.0",
    });
    assertEquals(npmPackage("npm:vscode-jsonrpc@10.0.0/node"), {
      name: "vscode-jsonrpc",
      version: "10.0.0",
    });
    assertEquals(npmPackage("node:fs"), undefined);
    assertEquals(npmPackage("npm:unversioned"), undefined);
  });
  await t.step("denoDir: DENO_DIR, else the system's cache folder", () => {
    assertEquals(denoDir({ DENO_DIR: "/d", HOME: "/h" }), "/d");
    assertEquals(denoDir({ HOME: "/h" }, "linux"), "/h/.cache/deno");
    assertEquals(denoDir({ HOME: "/h", XDG_CACHE_HOME: "/x" }, "linux"), "/x/deno");
    assertEquals(denoDir({ HOME: "/h" }, "darwin"), "/h/Library/Caches/deno");
  });
  await t.step("npmCachePath: the registry's host, the name's folders, the version", () => {
    assertEquals(
      npmCachePath("npm:@modelcontextprotocol/client@2.4.0", { DENO_DIR: "/d" }),
      "/d/npm/registry.npmjs.org/@modelcontextprotocol/client/2.4.0",
    );
    assertEquals(
      npmCachePath("npm:parse5@8.1.1", { DENO_DIR: "/d", NPM_CONFIG_REGISTRY: "http://m:8/r/" }),
      "/d/npm/m_8/parse5/8.1.1",
    );
    assertThrows(() => npmCachePath("jsr:@std/path@1", {}));
  });
});

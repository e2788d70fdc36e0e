/** Which configured language servers are on the PATH: a bare name searched there, the warning. */

import { defaultConfig } from "../../lib/config/config.ts";
import { availableLspServers, commandOnPath, notFoundWarning } from "../../lib/lsp/servers.ts";
import { assertEquals } from "../helpers/assert.ts";
import { GOPLS, project, PYRIGHT, removeProjects } from "../helpers/lsp/fixtures.ts";

Deno.test("lsp declaration", async (t) => {
  const dir = await project({ "gopls": "#!/bin/sh\n" });
  await Deno.chmod(`${dir}/gopls`, 0o755);
  const config = { ...defaultConfig(), lsp: { servers: [GOPLS, PYRIGHT] } };

  await t.step("servers not on the PATH are skipped with the warning", () => {
    assertEquals(availableLspServers(config, { PATH: `/nonexistent:${dir}` }, dir), {
      servers: [GOPLS],
      warnings: [
        "[warning: lsp server pyright (pyright-langserver) not found on the PATH — skipped]",
      ],
    });
    assertEquals(
      notFoundWarning(GOPLS),
      "[warning: lsp server gopls (gopls) not found on the PATH — skipped]",
    );
  });
  await removeProjects();
});

Deno.test("lsp pool: servers by extension, commands on the PATH", async (t) => {
  await t.step(
    "a bare name is searched on the PATH, a name with a slash from the cwd",
    async () => {
      const dir = await project({ "tool.sh": "#!/bin/sh\n", "plain.txt": "" });
      await Deno.chmod(`${dir}/tool.sh`, 0o755);
      assertEquals(commandOnPath("tool.sh", `/nonexistent:${dir}`, "/"), true);
      assertEquals(commandOnPath("plain.txt", dir, "/"), false, "not executable");
      assertEquals(commandOnPath("./tool.sh", "", dir), true);
      assertEquals(commandOnPath("nope", dir, dir), false);
      assertEquals(commandOnPath("", dir, dir), false);
    },
  );
  await removeProjects();
});

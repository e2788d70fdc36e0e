/** Where sessions live: the state folder's key folder per project, the agent file's dir, the old one. */

import {
  defaultSessionsDir,
  projectKey,
  sessionDirs,
  sessionsDir,
  stateHome,
} from "../../lib/session/dirs.ts";
import { assertEquals, assertMatch } from "../helpers/assert.ts";

Deno.test("session folders", async (t) => {
  await t.step("the state folder: XDG_STATE_HOME (absolute), else ~/.local/state", () => {
    assertEquals(stateHome({ XDG_STATE_HOME: "/x", HOME: "/h" }), "/x");
    assertEquals(stateHome({ XDG_STATE_HOME: "rel", HOME: "/h" }), "/h/.local/state");
    assertEquals(stateHome({ HOME: "/h" }), "/h/.local/state");
    assertEquals(stateHome({}), undefined);
  });

  await t.step("a project's key: a readable slug and a short hash, distinct per path", () => {
    assertMatch(projectKey("/home/ann/src/mm"), /^home-ann-src-mm-[0-9a-f]{8}$/);
    assertEquals(projectKey("/a/b"), projectKey("/a/b"));
    // Paths that slug alike still get their own folder.
    assertEquals(projectKey("/a b") === projectKey("/a-b"), false);
    const long = projectKey(`/${"x".repeat(200)}/end`);
    assertEquals(long.length <= 48 + 9, true);
    assertEquals(long.endsWith(long.slice(-8)) && long.includes("end-"), true);
    assertMatch(projectKey("/"), /^[0-9a-f]{8}$/);
  });

  await t.step("the default folder is under the state folder, never in the project", () => {
    const env = { XDG_STATE_HOME: "/state" };
    assertEquals(defaultSessionsDir("/p", env), `/state/mm/sessions/${projectKey("/p")}`);
    assertEquals(sessionsDir("/p", "", env), `/state/mm/sessions/${projectKey("/p")}`);
    assertEquals(defaultSessionsDir("/p", {}), undefined);
  });

  await t.step("sessions.dir of an agent file is honoured, against the working directory", () => {
    assertEquals(sessionsDir("/p", "s", { HOME: "/h" }), "/p/s");
    assertEquals(sessionsDir("/p", "/abs", { HOME: "/h" }), "/abs");
    assertEquals(sessionDirs("/p", "s", { HOME: "/h" }), ["/p/s"]);
  });

  await t.step("the default also looks in the project's old .mm/sessions", () => {
    assertEquals(sessionDirs("/p", "", { HOME: "/h" }), [
      `/h/.local/state/mm/sessions/${projectKey("/p")}`,
      "/p/.mm/sessions",
    ]);
    // No state folder at all: the old folder alone.
    assertEquals(sessionDirs("/p", "", {}), ["/p/.mm/sessions"]);
  });
});

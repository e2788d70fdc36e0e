/** Slash commands as typed (lib/frontend/terminal/commands.ts). */

import { parseCommand } from "../../../lib/frontend/terminal/commands.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("parseCommand: a name, then the rest; a path is a prompt", () => {
  assertEquals(parseCommand("/new"), { name: "/new", args: "" });
  assertEquals(parseCommand("  /ASK helper  count the files "), {
    name: "/ask",
    args: "helper  count the files",
  });
  assertEquals(parseCommand("/memory\nbuild tool"), { name: "/memory", args: "build tool" });
  assertEquals(parseCommand("/etc/hosts what is in it?"), undefined);
  assertEquals(parseCommand("/tmp/x.log"), undefined);
  assertEquals(parseCommand("fix /etc/hosts"), undefined);
});

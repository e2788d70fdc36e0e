/**
 * A program that takes the terminal as window mode does (lib/frontend/window/terminal.ts), then
 * leaves by the way `Deno.args[0]` names: `throw` (an uncaught error), `reject` (an unhandled
 * rejection), `exit` (`Deno.exit(3)`), or `wait` (until a signal ends it).
 */

import { guardExits, WindowTerminal } from "../../lib/frontend/window/terminal.ts";

const terminal = new WindowTerminal({ mouse: true });
guardExits(() => terminal.leave());
terminal.enter();
await new Promise((r) => setTimeout(r, 200));
const way = Deno.args[0];
if (way === "throw") {
  setTimeout(() => {
    throw new Error("boom from the window");
  }, 0);
}
if (way === "reject") Promise.reject(new Error("rejected in the window"));
if (way === "exit") Deno.exit(3);
if (way === "wait") await new Promise(() => {});

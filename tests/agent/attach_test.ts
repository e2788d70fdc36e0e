/** `@` mentions attached to a prompt (lib/agent/attach.ts): which words mention, the bounds, the refusals. */

import {
  ATTACHED_HEADING,
  attachedLine,
  attachFiles,
  type AttachPorts,
  leftOutLine,
  MAX_ATTACHED,
  mentionsOf,
  missingText,
  outsideFolderText,
  refusedText,
} from "../../lib/agent/attach.ts";
import { assertEquals } from "../helpers/assert.ts";

/** Ports over `files` (path → text); `refuse` names paths the gate refuses. */
function ports(files: Record<string, string>, refuse: string[] = [], maxOutput = 10_000) {
  const reads: string[] = [];
  const p: AttachPorts = {
    cwd: "/p",
    maxOutput,
    read: (path) => {
      reads.push(path);
      if (refuse.includes(path)) return Promise.resolve({ kind: "refused", text: "denied" });
      const numbered = files[path].split("\n").map((l, i) => `${i + 1}\t${l}`).join("\n");
      return Promise.resolve({ kind: "read", output: numbered, failed: false });
    },
    kind: (path) =>
      Promise.resolve(
        path.endsWith("/") || path === "src" ? "folder" : path in files ? "file" : "missing",
      ),
    list: () => Promise.resolve(["a.ts", "b/"]),
  };
  return { p, reads };
}

Deno.test("mentionsOf: an @ that starts a word; an email is none", () => {
  assertEquals(mentionsOf("look at @README.md and @src/a.ts, please"), ["README.md", "src/a.ts"]);
  assertEquals(mentionsOf("write to me@x.com"), []);
  assertEquals(mentionsOf("@a.ts @a.ts (see @b.ts)."), ["a.ts", "b.ts"]);
  assertEquals(mentionsOf("@ alone"), []);
});

Deno.test("attachFiles: numbered lines below the prompt, a 📎 line each", async () => {
  const { p } = ports({ "a.ts": "x\ny" });
  assertEquals(await attachFiles("see @a.ts", ["a.ts"], p), {
    ok: true,
    prompt: `see @a.ts\n\n${ATTACHED_HEADING}\n--- @a.ts ---\n1\tx\n2\ty`,
    lines: ["📎 a.ts (2 lines)"],
  });
  assertEquals(attachedLine("b", 1), "📎 b (1 line)");
  const folder = await attachFiles("@src", ["src"], p);
  assertEquals(folder.ok && folder.lines, ["📎 src (folder: 2 entries)"]);
});

Deno.test("attachFiles: missing, refused or an outside folder sends nothing", async () => {
  const { p } = ports({ "a.ts": "x" }, ["/etc/passwd"]);
  assertEquals(await attachFiles("q", ["a.ts", "nope.ts"], p), {
    ok: false,
    text: missingText("nope.ts"),
  });
  assertEquals(missingText("n"), "@n: no such file or folder — nothing was sent");
  p.kind = () => Promise.resolve("file");
  assertEquals(await attachFiles("q", ["/etc/passwd"], p), {
    ok: false,
    text: refusedText("/etc/passwd", "denied"),
  });
  p.kind = () => Promise.resolve("folder");
  assertEquals(await attachFiles("q", ["../up"], p), {
    ok: false,
    text: outsideFolderText("../up"),
  });
});

Deno.test("attachFiles: at most 20 files, maxOutput in all, the rest said", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 50; i++) files[`f${i}`] = "line";
  const { p, reads } = ports(files);
  const many = await attachFiles("q", Object.keys(files), p);
  assertEquals(reads.length, MAX_ATTACHED);
  assertEquals(many.ok && many.lines.length, MAX_ATTACHED + 1);
  assertEquals(
    many.ok && many.lines.at(-1),
    leftOutLine(Object.keys(files).slice(MAX_ATTACHED), "count"),
  );
  const small = ports({ a: "x".repeat(50), b: "y".repeat(50) }, [], 80).p;
  const sized = await attachFiles("q", ["a", "b"], small);
  assertEquals(sized.ok && sized.lines, [
    "📎 a (1 line)",
    "📎 not attached (the attachments reached maxOutput): b",
  ]);
});

/** `systemFile`'s check: a regular file mm may open, within the prompt files' size limit. */
import { dirname, resolve } from "node:path";
import { errorMessage } from "./errors.ts";
import type { Reader } from "./reader.ts";

/** The most bytes of `systemFile`, and of `AGENTS.md`, that go into the system prompt: 1 MiB. */
export const PROMPT_FILE_LIMIT = 1024 * 1024;

/** Why a prompt file larger than {@linkcode PROMPT_FILE_LIMIT} is not read. */
export const TOO_LARGE_REASON = "it is larger than the 1 MiB limit";

/**
 * Checks, with the rest of the agent file and before any request, that `systemFile` (relative to
 * the agent file `file`) names a regular file mm may open, of at most {@linkcode PROMPT_FILE_LIMIT}
 * bytes: a fault at its key's position otherwise. The file is opened and closed, not read (the
 * start-up reads it, within the same limit).
 */
export function checkSystemFile(reader: Reader, systemFile: string, file: string): void {
  const path = resolve(dirname(file), systemFile);
  let reason: string | undefined;
  try {
    const info = Deno.statSync(path);
    if (info.isDirectory) reason = "it is a directory";
    else if (!info.isFile) reason = "it is not a regular file";
    else if (info.size > PROMPT_FILE_LIMIT) reason = TOO_LARGE_REASON;
    else Deno.openSync(path, { read: true }).close();
  } catch (err) {
    reason = err instanceof Deno.errors.NotFound ? "no such file" : errorMessage(err);
  }
  if (reason === undefined) return;
  for (const e of reader.dict(reader.root())) {
    if (e.name === "systemFile") {
      reader.fail(e.pos, "systemFile", `systemFile: ${path} cannot be read (${reason})`);
    }
  }
}

/**
 * Undo's read-only use of the user's git (docs/undo.md): every command through lib/exec/spawn.ts,
 * with an environment cleaned of git's variables and `GIT_OPTIONAL_LOCKS=0` (`git status` does not
 * write the index); blobs read by their ids with `git cat-file --batch`. Nothing is ever written to
 * the user's `.git`: no object, no ref, no commit.
 */

import { createHash } from "node:crypto";
import { withoutSecrets } from "../child_env.ts";
import { spawnProcess } from "../exec/spawn.ts";
import { GIT_TIMEOUT, MAX_LISTING } from "./limits.ts";

/** How many blobs one `git cat-file --batch` reads at most (≤ 2 MiB each: 64 MiB at once). */
export const BLOB_BATCH = 32;

/**
 * The environment of undo's git: mm's without its secrets and without any `GIT_` variable (a
 * `GIT_DIR` or `GIT_INDEX_FILE` of the caller's would point elsewhere), optional locks off.
 */
export function gitEnv(): Record<string, string> {
  let env: Record<string, string> = {};
  try {
    env = Deno.env.toObject();
  } catch {
    // without the permission: git's defaults
  }
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(withoutSecrets(env))) {
    if (!name.startsWith("GIT_")) out[name] = value;
  }
  return { ...out, GIT_OPTIONAL_LOCKS: "0" };
}

/**
 * The output of `git args…` in `cwd` (`input` on its standard input), or undefined when git is
 * missing, fails, or says more than `limit` bytes.
 */
export async function gitBytes(
  args: string[],
  cwd: string,
  input?: Uint8Array,
  limit = MAX_LISTING,
): Promise<Uint8Array | undefined> {
  try {
    const p = await spawnProcess({
      argv: ["git", ...args],
      cwd,
      wholeEnv: gitEnv(),
      stdin: input ? "piped" : "null",
      stdout: "piped",
      timeout: GIT_TIMEOUT,
    });
    try {
      const writing = input ? writeAll(p.child.stdin, input) : Promise.resolve();
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of p.child.stdout) {
        size += chunk.length;
        if (size > limit) {
          p.stop();
          break;
        }
        chunks.push(chunk);
      }
      await writing.catch(() => {});
      const status = await p.status;
      if (!status.success || size > limit) return undefined;
      const all = new Uint8Array(size);
      let at = 0;
      for (const c of chunks) all.set(c, at), at += c.length;
      return all;
    } finally {
      p.end();
    }
  } catch {
    return undefined;
  }
}

/** {@linkcode gitBytes} as text. */
export async function git(args: string[], cwd: string): Promise<string | undefined> {
  const out = await gitBytes(args, cwd);
  return out && new TextDecoder().decode(out);
}

/** Writes `bytes` to `stream` and closes it. */
async function writeAll(stream: WritableStream<Uint8Array>, bytes: Uint8Array): Promise<void> {
  const w = stream.getWriter();
  try {
    await w.write(bytes);
    await w.close();
  } finally {
    w.releaseLock();
  }
}

/** git's id of a blob of `bytes` (sha1 of `blob <size>\0` and the bytes), as a sha1 repository names it. */
export function gitBlobId(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/**
 * The blobs `oids` of the repository whose git folder is `gitDir`, read with one
 * `git cat-file --batch` per {@linkcode BLOB_BATCH}: each one's bytes, or undefined when it is gone
 * (gc) or is not a blob. Every one undefined when git cannot be asked.
 */
export async function readBlobs(
  gitDir: string,
  oids: string[],
): Promise<Map<string, Uint8Array | undefined>> {
  const out = new Map<string, Uint8Array | undefined>();
  const unique = [...new Set(oids)].filter((o) => /^[0-9a-f]{40,64}$/.test(o));
  for (let i = 0; i < unique.length; i += BLOB_BATCH) {
    const batch = unique.slice(i, i + BLOB_BATCH);
    const input = new TextEncoder().encode(batch.map((o) => `${o}\n`).join(""));
    const bytes = await gitBytes(["--git-dir", gitDir, "cat-file", "--batch"], gitDir, input);
    const found = bytes ? parseBatch(bytes) : new Map();
    for (const o of batch) out.set(o, found.get(o));
  }
  for (const o of oids) if (!out.has(o)) out.set(o, undefined);
  return out;
}

/** The blobs of `git cat-file --batch` output: `<oid> blob <size>\n<bytes>\n`, or `<oid> missing\n`. */
export function parseBatch(bytes: Uint8Array): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  let at = 0;
  while (at < bytes.length) {
    const nl = bytes.indexOf(10, at);
    if (nl < 0) break;
    const header = new TextDecoder().decode(bytes.subarray(at, nl)).split(" ");
    at = nl + 1;
    if (header.length !== 3) continue; // `<oid> missing` (or ambiguous)
    const size = Number(header[2]);
    if (!Number.isSafeInteger(size) || at + size > bytes.length) break;
    if (header[1] === "blob") out.set(header[0], bytes.slice(at, at + size));
    at += size + 1;
  }
  return out;
}

/**
 * Which of the blobs `oids` the repository whose git folder is `gitDir` still holds, asked with
 * one `git cat-file --batch-check` (nothing read). Undefined when git cannot be asked.
 */
export async function heldBlobs(gitDir: string, oids: string[]): Promise<Set<string> | undefined> {
  const unique = [...new Set(oids)].filter((o) => /^[0-9a-f]{40,64}$/.test(o));
  if (!unique.length) return new Set();
  const input = new TextEncoder().encode(unique.map((o) => `${o}\n`).join(""));
  const out = await gitBytes(["--git-dir", gitDir, "cat-file", "--batch-check"], gitDir, input);
  if (!out) return undefined;
  const held = new Set<string>();
  for (const line of new TextDecoder().decode(out).split("\n")) {
    const [oid, type] = line.split(" ");
    if (type === "blob") held.add(oid);
  }
  return held;
}

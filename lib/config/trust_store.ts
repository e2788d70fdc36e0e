/**
 * The folders whose project agent file the user trusts (`mm trust`): `$XDG_CONFIG_HOME/mm/trusted.json`,
 * else `~/.config/mm/trusted.json`. Each record keeps the folder, the file and the hash of its
 * trust-relevant keys (trust.ts). A change is made under a lock (two mm trusting at once lose
 * nothing) and written atomically (a temporary file renamed over the store, removed on failure);
 * a store that is not JSON is reported, never overwritten.
 */
import { UserError } from "../presentation.ts";
import { dirname, isAbsolute, join } from "node:path";
import { errorMessage } from "./errors.ts";

/** One trusted folder. */
export interface TrustRecord {
  folder: string;
  file: string;
  hash: string;
  /** When it was trusted, ISO 8601. */
  trustedAt: string;
}

/** The trust store cannot be read or written: one sentence with the path and the fix. */
export class TrustStoreError extends UserError {
  /** `message` names the store's path. */
  constructor(message: string) {
    super(message, 2);
    this.name = "TrustStoreError";
  }
}

/** Where the trust store is: `$XDG_CONFIG_HOME/mm/trusted.json` (absolute), else `~/.config/mm/`. */
export function trustStorePath(env: Record<string, string | undefined>): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "mm", "trusted.json");
  const home = env.HOME || env.USERPROFILE || ".";
  return join(home, ".config", "mm", "trusted.json");
}

/** The records of the store at `path`; none when it does not exist. Not JSON: TrustStoreError. */
export function readTrustStore(path: string): TrustRecord[] {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw new TrustStoreError(`the trust store ${path} cannot be read: ${errorMessage(err)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new TrustStoreError(
      `the trust store ${path} is not JSON (${
        errorMessage(err)
      }) — fix it or remove it (it is not overwritten)`,
    );
  }
  const folders = (data as { folders?: unknown } | null)?.folders;
  if (!Array.isArray(folders) || !folders.every(isRecord)) {
    throw new TrustStoreError(
      `the trust store ${path} is not a list of trusted folders — fix it or remove it (it is not overwritten)`,
    );
  }
  return folders;
}

function isRecord(x: unknown): x is TrustRecord {
  const r = x as TrustRecord | null;
  return typeof r === "object" && r !== null && typeof r.folder === "string" &&
    typeof r.file === "string" && typeof r.hash === "string";
}

/** Whether the store trusts `folder`'s file `file` with the trust-relevant keys of hash `hash`. */
export function isTrusted(path: string, folder: string, file: string, hash: string): boolean {
  return readTrustStore(path).some((r) =>
    r.folder === folder && r.file === file && r.hash === hash
  );
}

/**
 * Changes the store at `path` under its lock: reads it afresh, hands its records to `change`, and
 * writes what it returns atomically. Any failure is a TrustStoreError and leaves the store as it was.
 */
export async function updateTrustStore(
  path: string,
  change: (records: TrustRecord[]) => TrustRecord[],
): Promise<void> {
  const what = `cannot write the trust store ${path}`;
  try {
    await Deno.mkdir(dirname(path), { recursive: true });
  } catch (err) {
    throw new TrustStoreError(`${what}: ${errorMessage(err)}`);
  }
  let lock: Deno.FsFile;
  try {
    lock = await Deno.open(`${path}.lock`, { create: true, write: true });
  } catch (err) {
    throw new TrustStoreError(`${what}: ${errorMessage(err)}`);
  }
  try {
    await lock.lock(true);
    const records = change(readTrustStore(path));
    const temp = `${path}.${Deno.pid}.tmp`;
    try {
      await Deno.writeTextFile(temp, JSON.stringify({ folders: records }, null, 2) + "\n");
      await Deno.rename(temp, path);
    } catch (err) {
      await Deno.remove(temp).catch(() => {});
      throw new TrustStoreError(`${what}: ${errorMessage(err)}`);
    }
  } finally {
    lock.close();
  }
}

/** Records `record`, replacing an earlier record of its folder. */
export function trustFolder(path: string, record: TrustRecord): Promise<void> {
  return updateTrustStore(path, (rs) => [...rs.filter((r) => r.folder !== record.folder), record]);
}

/** Removes the record of `folder`; whether there was one. */
export async function revokeFolder(path: string, folder: string): Promise<boolean> {
  let found = false;
  await updateTrustStore(path, (rs) => {
    found = rs.some((r) => r.folder === folder);
    return rs.filter((r) => r.folder !== folder);
  });
  return found;
}

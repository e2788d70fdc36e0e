/**
 * `mm trust`: shows what this folder's agent file would run and reach, then trusts it (records
 * the folder and the hash of its trust-relevant keys); `--list` the trusted folders, `--revoke
 * [DIR]` takes a folder's trust back (docs/security.md).
 */
import { resolve } from "node:path";
import type { Layers } from "../config/layers.ts";
import { trustLines } from "../config/trust.ts";
import { shown } from "../frontend/terminal/trust_question.ts";
import { readTrustStore, revokeFolder, trustFolder } from "../config/trust_store.ts";

/** `mm trust --help`. */
export const TRUST_HELP = `Usage:
  mm trust [--yes]
  mm trust --list
  mm trust --revoke [DIR]

Shows what this folder's agent file (./.mm/mm.yaml, else ./mm.yaml) runs and reaches, and trusts
it. A project's agent file that runs programs (hooks, tools, mcpServers, lsp, mmConfigs), sets
yolo: true or permissions.allow, loosens the sandbox (sandbox, sandboxNetwork), sends the key or
the conversation to another host (url, apiKey, provider), or reads outside its folder
(systemFile, skillsDir, sessions.dir) applies only once its folder is trusted. A change of those
keys makes the folder untrusted again. --trust or MM_TRUST=1 trusts it for one run; a file named
by -c or $MM_CONFIG is always trusted.

  --yes                   trust without asking y/N (for scripts; needed without a terminal)
  --list                  the trusted folders
  --revoke [DIR]          take back the trust of DIR (else this folder)

Exit codes: 0 trusted, listed or revoked, or nothing to trust; 1 not trusted (no project agent
file, the answer was no, or no terminal and no --yes); 2 a bad flag.
`;

/** What mm trust needs. */
export interface TrustOptions {
  cwd: string;
  /** The trust store's path (trust_store.ts). */
  store: string;
  list: boolean;
  revoke: boolean;
  /** `--revoke DIR`. */
  dir?: string;
  /** The agent files of `cwd`, layered (only read for `mm trust` itself). */
  layers: () => Layers;
  out: (text: string) => void;
  /**
   * Asks the user y/N before recording: true to trust, false not to, undefined when nobody can be
   * asked (no terminal). Absent with `--yes`: recorded without asking.
   */
  confirm?: () => Promise<boolean | undefined>;
}

/** What mm trust says when it cannot ask and was not given --yes. */
export const TRUST_NEEDS_YES =
  "mm trust asks before it trusts, and stdin is not a terminal: run mm trust --yes to trust this folder without asking\n";

/** Runs mm trust; returns the exit code. */
export async function runTrust(opts: TrustOptions): Promise<number> {
  if (opts.list) {
    const records = readTrustStore(opts.store);
    if (!records.length) opts.out(`no trusted folder (${opts.store})\n`);
    for (const r of records) {
      opts.out(`${shown(r.folder)}  ${shown(r.file)}  (trusted ${shown(r.trustedAt)})\n`);
    }
    return 0;
  }
  if (opts.revoke) {
    const folder = resolve(opts.cwd, opts.dir ?? ".");
    const was = await revokeFolder(opts.store, folder);
    opts.out(was ? `${folder} is no longer trusted\n` : `${folder} was not trusted\n`);
    return 0;
  }
  const layers = opts.layers();
  const project = layers.files.find((f) => f.role === "project");
  if (!project) {
    opts.out(
      `${opts.cwd} has no project agent file (./.mm/mm.yaml or ./mm.yaml): nothing to trust\n`,
    );
    return 1;
  }
  const p = layers.project;
  if (!p) {
    opts.out(`${project.file} runs no program and widens no access: it needs no trust\n`);
    return 0;
  }
  opts.out([shown(p.file), ...trustLines(p.items).map(shown), ""].join("\n"));
  if (opts.confirm) {
    const answer = await opts.confirm();
    if (answer === undefined) {
      opts.out(TRUST_NEEDS_YES);
      return 1;
    }
    if (!answer) {
      opts.out(`${shown(p.folder)} is not trusted\n`);
      return 1;
    }
  }
  await trustFolder(opts.store, {
    folder: p.folder,
    file: p.file,
    hash: p.hash,
    trustedAt: new Date().toISOString(),
  });
  opts.out(`${p.folder} is trusted (recorded in ${opts.store})\n`);
  return 0;
}

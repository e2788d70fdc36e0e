/** What the undo store keeps, bounded: every limit of lib/undo/, named in one place. */

/** A file larger than this is not kept (its turn says so): 2 MiB. */
export const MAX_KEPT_FILE = 2 * 1024 * 1024;

/** What one session's store may hold before its oldest turns are dropped: 256 MiB. */
export const MAX_SESSION_BYTES = 256 * 1024 * 1024;

/** What every store of a sessions directory may hold before the oldest sessions' turns go: 1 GiB. */
export const MAX_TOTAL_BYTES = 1024 * 1024 * 1024;

/** How long the listing of a git work tree may take before the snapshot is given up: 30 s. */
export const GIT_TIMEOUT = 30_000;

/** The most bytes of `git ls-files` output read: 64 MiB (a million paths). */
export const MAX_LISTING = 64 * 1024 * 1024;

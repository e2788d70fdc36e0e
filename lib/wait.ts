/** Waiting with a limit, for the adapters that stop processes (lib/lsp/, lib/mcp/). */

/** Whether `promise` settles (either way) within `ms`; the timer is cleared either way. */
export async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise.then(() => true, () => true),
      new Promise<boolean>((r) => timer = setTimeout(() => r(false), ms)),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

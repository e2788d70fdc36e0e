/** Waiting with a limit, or until a cancellation: for the adapters that stop processes, the start-up. */

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

/** Whether `promise` settles (either way) before `signal` aborts; false at once when it has. */
export function settledBefore(promise: Promise<unknown>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const onAbort = () => resolve(false);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(() => true, () => true).then((settled) => {
      signal.removeEventListener("abort", onAbort);
      resolve(settled);
    });
  });
}

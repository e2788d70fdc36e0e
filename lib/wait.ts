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

/** `promise`'s value, or undefined when it takes longer than `ms` (the timer cleared either way). */
export async function orNothingAfter<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<undefined>((resolve) => timer = setTimeout(() => resolve(undefined), ms)),
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

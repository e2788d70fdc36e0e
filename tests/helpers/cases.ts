/** Runs independent end-to-end cases concurrently, then reports each as its own test step. */

/** Named async checks; each throws when its assertion fails. */
export type Cases = Record<string, () => Promise<void>>;

/** Runs `cases` at most `limit` at a time, then one `t.step` per case with its outcome. */
export async function runCases(t: Deno.TestContext, cases: Cases, limit = 4): Promise<void> {
  const names = Object.keys(cases);
  const outcomes = new Map<string, PromiseSettledResult<void>>();
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++];
      try {
        await cases[name]();
        outcomes.set(name, { status: "fulfilled", value: undefined });
      } catch (reason) {
        outcomes.set(name, { status: "rejected", reason });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, names.length) }, worker));
  for (const name of names) {
    await t.step(name, () => {
      const o = outcomes.get(name)!;
      if (o.status === "rejected") throw o.reason;
    });
  }
}

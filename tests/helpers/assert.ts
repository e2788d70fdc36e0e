/** Tiny assertions for Deno.test, built on node:assert/strict (no @std available). */
import assert from "node:assert/strict";

/** Asserts deep strict equality. */
export function assertEquals(actual: unknown, expected: unknown, msg?: string): void {
  assert.deepStrictEqual(actual, expected, msg);
}

/** Asserts that `actual` contains `expected`. */
export function assertStringIncludes(actual: string, expected: string, msg?: string): void {
  if (!actual.includes(expected)) {
    throw new assert.AssertionError({
      message: msg ?? `expected ${JSON.stringify(actual)} to include ${JSON.stringify(expected)}`,
      actual,
      expected,
      operator: "includes",
    });
  }
}

/** Asserts that `actual` matches `expected`. */
export function assertMatch(actual: string, expected: RegExp, msg?: string): void {
  assert.match(actual, expected, msg);
}

// deno-lint-ignore no-explicit-any
type ErrorClass<E extends Error> = new (...args: any[]) => E;

function checkError<E extends Error>(
  err: unknown,
  errorClass?: ErrorClass<E>,
  msgIncludes?: string,
): E {
  if (errorClass && !(err instanceof errorClass)) {
    throw new assert.AssertionError({
      message: `expected error of class ${errorClass.name}, got ${String(err)}`,
    });
  }
  if (msgIncludes !== undefined) {
    const message = err instanceof Error ? err.message : String(err);
    assertStringIncludes(message, msgIncludes);
  }
  return err as E;
}

/** Asserts that `fn` throws (optionally an instance of `errorClass` whose message includes `msgIncludes`); returns the error. */
export function assertThrows<E extends Error = Error>(
  fn: () => unknown,
  errorClass?: ErrorClass<E>,
  msgIncludes?: string,
): E {
  try {
    fn();
  } catch (err) {
    return checkError(err, errorClass, msgIncludes);
  }
  throw new assert.AssertionError({ message: "expected function to throw" });
}

/** Asserts that `fn` rejects (optionally with `errorClass` and a message including `msgIncludes`); returns the error. */
export async function assertRejects<E extends Error = Error>(
  fn: () => Promise<unknown>,
  errorClass?: ErrorClass<E>,
  msgIncludes?: string,
): Promise<E> {
  try {
    await fn();
  } catch (err) {
    return checkError(err, errorClass, msgIncludes);
  }
  throw new assert.AssertionError({ message: "expected promise to reject" });
}

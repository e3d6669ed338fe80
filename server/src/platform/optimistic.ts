/** Returned by a round of an optimistic update whose write lost a race: decide again on fresh state. */
export const RETRY: unique symbol = Symbol('retry');

/**
 * Optimistic concurrency: runs `round` (read, decide, write only if nothing changed) until it returns a
 * result instead of RETRY. After `attempts` lost races it gives up with `exhausted()` (a 409, say):
 * only heavy contention gets there.
 */
export async function retryOptimistic<T>(
  attempts: number,
  exhausted: () => Error,
  round: (attempt: number) => Promise<T | typeof RETRY>,
): Promise<T> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const result = await round(attempt);
    if (result !== RETRY) return result;
  }
  throw exhausted();
}

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
  return retryOptimisticOr(
    attempts,
    () => {
      throw exhausted();
    },
    round,
  );
}

/**
 * As retryOptimistic, but after `attempts` lost races it settles on `giveUp()` instead of failing: for
 * work nobody waits on (a timer, a sweep) that its next run takes up again.
 */
export async function retryOptimisticOr<T, G>(
  attempts: number,
  giveUp: () => G,
  round: (attempt: number) => Promise<T | typeof RETRY>,
): Promise<T | G> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const result = await round(attempt);
    if (result !== RETRY) return result;
  }
  return giveUp();
}

/**
 * Runs `work` (a transaction, usually); a thrown `kind`, which rolled the transaction back, becomes null,
 * anything else propagates. A round of retryOptimistic throws `kind` where its write lost a race and
 * answers RETRY on null.
 */
export async function rollbackOn<T>(kind: new () => Error, work: () => Promise<T>): Promise<T | null> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof kind) return null;
    throw e;
  }
}

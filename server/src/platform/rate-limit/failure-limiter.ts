/**
 * Counts failed attempts per key (a client address) in a sliding window and refuses a key once it has
 * reached the limit. Successes do not count, so a member who types the right code is never slowed down.
 *
 * An attempt is counted when it begins and forgiven when it turns out not to be a failure, so attempts
 * running in parallel (on one instance or several) cannot all pass the check before any is counted.
 */
export type FailureLimiter = {
  begin(key: string): Promise<Attempt>;
};

export type Attempt =
  /** Go ahead; call `forgive()` unless the attempt failed. `forgive()` never rejects. */
  | { isAllowed: true; forgive(): Promise<void> }
  /** Refused: the key has used its failures; `retryAfterSeconds` ≥ 1. */
  | { isAllowed: false; retryAfterSeconds: number };

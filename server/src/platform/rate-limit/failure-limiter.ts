import { RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Counts failed attempts per key (a client address) in a window and refuses a key once it has reached
 * the limit. Successes do not count, so a member who types the right code is never slowed down.
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

/** The part of a rate-limiter-flexible limiter a failure limiter uses. */
type Counter = {
  consume(key: string, points?: number): Promise<RateLimiterRes>;
  reward(key: string, points?: number): Promise<RateLimiterRes>;
};

/**
 * A FailureLimiter on a rate-limiter-flexible limiter with `points` = the number of failures allowed:
 * beginning consumes a point, forgiving rewards it back. `onError` decides what a store failure (not a
 * refusal) means.
 */
export function failureLimiterOn(
  counter: Counter,
  onError: (err: unknown, key: string) => Promise<Attempt>,
  onForgiveError: (err: unknown) => void = () => {},
): FailureLimiter {
  return {
    async begin(key: string): Promise<Attempt> {
      try {
        await counter.consume(key);
      } catch (e) {
        if (!(e instanceof RateLimiterRes)) return onError(e, key);
        return { isAllowed: false, retryAfterSeconds: Math.max(1, Math.ceil(e.msBeforeNext / 1000)) };
      }
      return {
        isAllowed: true,
        // If this fails, the counted attempt simply expires with the window.
        forgive: () =>
          counter.reward(key, 1).then(
            () => undefined,
            (err: unknown) => {
              onForgiveError(err);
            },
          ),
      };
    },
  };
}

import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { ReportRedisError } from '../redis-helpers.ts';
import { type FailureLimiter, failureLimiterOn } from './failure-limiter.ts';
import type { RedisClient } from './redis-client.ts';

export type RedisFailureLimiterOptions = {
  client: RedisClient;
  /** What is limited, for log lines (e.g. `access-code failures`). */
  name: string;
  /** Key prefix for this limiter, e.g. `guildhall:rl:fail:access-code` (keys are `<prefix>:<address>`). */
  keyPrefix: string;
  max: number;
  /** Whole seconds: Redis expires the window's key. */
  windowMs: number;
  /** Used while Redis is unreachable. */
  fallback: FailureLimiter;
  report: ReportRedisError;
};

/**
 * The failure limiter shared by every instance on one Redis (rate-limiter-flexible: one atomic
 * INCRBY + expiry per attempt, so parallel attempts on every instance cannot overshoot). While Redis is
 * unreachable it falls back to this instance's own count: the limit then holds per instance (at worst
 * N× across N instances, as before Redis) instead of vanishing (fail open) or locking every member out
 * of access-code sign-in (fail closed); the attempts an outage hides from Redis are not replayed later.
 */
export function createRedisFailureLimiter(opts: RedisFailureLimiterOptions): FailureLimiter {
  const { client, name, keyPrefix, max, windowMs, fallback, report } = opts;
  const counter = new RateLimiterRedis({
    storeClient: client,
    useRedisPackage: true,
    keyPrefix,
    points: max,
    duration: windowMs / 1000,
  });
  return failureLimiterOn(
    counter,
    (err, key) => {
      report(err, name);
      return fallback.begin(key);
    },
    (err) => report(err, name),
  );
}

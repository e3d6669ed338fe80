import { randomUUID } from 'node:crypto';
import type { ReportRedisError } from '../redis-helpers.ts';
import type { Attempt, FailureLimiter } from './failure-limiter.ts';
import { defineLua, type RunScript } from './lua.ts';

/**
 * One sorted set per key: a member per counted attempt, scored by when it began. Redis's own clock is
 * used so every instance measures the window the same way. Returns 0 when the attempt was counted,
 * otherwise the milliseconds until the oldest failure that keeps the key blocked leaves the window.
 */
const BEGIN = defineLua(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local max = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
if n >= max then
  local oldest = redis.call('ZRANGE', KEYS[1], n - max, n - max, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + window - now)
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return 0
`);

const FORGIVE = defineLua(`return redis.call('ZREM', KEYS[1], ARGV[1])`);

export type RedisFailureLimiterOptions = {
  run: RunScript;
  /** What is limited, for log lines (e.g. `access-code failures`). */
  name: string;
  /** Full key prefix for this limiter, e.g. `guildhall:rl:fail:access-code:`. */
  keyPrefix: string;
  max: number;
  windowMs: number;
  /** Used while Redis is unreachable. */
  fallback: FailureLimiter;
  report: ReportRedisError;
};

/**
 * The failure limiter shared by every instance on one Redis. While Redis is unreachable it falls back to
 * this instance's own count: the limit then holds per instance (at worst N× across N instances, as
 * before Redis) instead of vanishing (fail open) or locking every member out of access-code sign-in
 * (fail closed); the attempts an outage hides from Redis are not replayed later.
 */
export function createRedisFailureLimiter(opts: RedisFailureLimiterOptions): FailureLimiter {
  const { run, name, keyPrefix, max, windowMs, fallback, report } = opts;
  return {
    async begin(key: string): Promise<Attempt> {
      const redisKey = keyPrefix + key;
      const member = randomUUID();
      let waitMs: number;
      try {
        waitMs = Number(await run(BEGIN, [redisKey], [String(windowMs), String(max), member]));
        if (!Number.isFinite(waitMs)) throw new Error('rate limits: unexpected Redis reply');
      } catch (err) {
        report(err, name);
        return fallback.begin(key);
      }
      if (waitMs > 0) return { isAllowed: false, retryAfterSeconds: Math.ceil(waitMs / 1000) };
      return {
        isAllowed: true,
        async forgive() {
          // If this fails, the counted attempt simply expires with the window.
          await run(FORGIVE, [redisKey], [member]).catch((err: unknown) => report(err, name));
        },
      };
    },
  };
}

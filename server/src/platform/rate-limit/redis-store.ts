import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { ReportRedisError } from '../redis-helpers.ts';
import { defineLua, type RunScript } from './lua.ts';

/**
 * Counts one request in a fixed window, the way the plugin's in-memory store does: the first request
 * starts the window, later ones see its remaining time. A key without expiry (never expected) gets one.
 */
const INCR = defineLua(`
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`);

type IncrCallback = Parameters<FastifyRateLimitStore['incr']>[1];

/** The options the plugin passes to child(): its own merged settings plus the route they apply to. */
type ChildOptions = {
  routeInfo?: { method?: string | string[]; url?: string };
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
};

/**
 * A `@fastify/rate-limit` store class counting in Redis, so every instance sharing `prefix` shares each
 * budget. Keys are `<prefix>global:<client>` for the global limit and `<prefix>route:<METHOD><url>:<client>`
 * for routes with their own limit, as the plugin's own Redis store separates them. On a Redis error it
 * reports and passes the error on; the plugin is registered with `skipOnError`, so the request goes
 * through (fail open) rather than becoming a 500.
 */
export function redisRateLimitStore(
  run: RunScript,
  prefix: string,
  report: ReportRedisError,
): FastifyRateLimitStoreCtor {
  class RedisRateLimitStore implements FastifyRateLimitStore {
    private readonly keyPrefix: string;

    constructor(options: ChildOptions, keyPrefix = `${prefix}global:`) {
      // The Lua script implements the plain fixed window only; refuse settings it would silently ignore.
      if (options.continueExceeding || options.exponentialBackoff) {
        throw new Error('rate limits: continueExceeding/exponentialBackoff are not supported with Redis');
      }
      this.keyPrefix = keyPrefix;
    }

    incr(key: string, callback: IncrCallback, timeWindow: number): void {
      run(INCR, [this.keyPrefix + key], [String(timeWindow)])
        .then(parseIncrReply)
        .then(
          (counted) => callback(null, counted),
          (err: unknown) => {
            report(err, 'request limits');
            callback(err instanceof Error ? err : new Error(String(err)));
          },
        );
    }

    child(routeOptions: object): FastifyRateLimitStore {
      const options = routeOptions as ChildOptions; // the plugin's merged params, typed loosely upstream
      return new RedisRateLimitStore(options, `${prefix}route:${routeId(options)}:`);
    }
  }
  return RedisRateLimitStore;
}

function routeId(options: ChildOptions): string {
  const { method, url } = options.routeInfo ?? {};
  // createRateLimit() limiters carry no route; they share one namespace.
  if (!url) return 'custom';
  return `${Array.isArray(method) ? method.join(',') : (method ?? '')}${url}`;
}

function parseIncrReply(reply: unknown): { current: number; ttl: number } {
  if (!Array.isArray(reply) || reply.length !== 2) throw new Error('rate limits: unexpected Redis reply');
  return { current: Number(reply[0]), ttl: Number(reply[1]) };
}

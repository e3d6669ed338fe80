import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { ReportRedisError } from '../redis-helpers.ts';
import type { RedisClient } from './redis-client.ts';

type IncrCallback = Parameters<FastifyRateLimitStore['incr']>[1];

/** The options the plugin passes to child(): its own merged settings plus the route they apply to. */
type ChildOptions = {
  routeInfo?: { method?: string | string[]; url?: string };
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
};

/**
 * A `@fastify/rate-limit` store counting in Redis through rate-limiter-flexible (one atomic INCRBY with
 * expiry per request: a fixed window that starts with the first request), so every instance sharing
 * `prefix` shares each budget. Keys are `<prefix>global:<client>` for the global limit and
 * `<prefix>route:<METHOD><url>:<client>` for routes with their own limit. The store only counts (its
 * points are unbounded); the plugin compares with the route's max. On a Redis error it reports and
 * passes the error on; the plugin is registered with `skipOnError`, so the request goes through (fail
 * open) rather than becoming a 500.
 */
export function redisRateLimitStore(
  client: RedisClient,
  prefix: string,
  report: ReportRedisError,
): FastifyRateLimitStoreCtor {
  class RedisRateLimitStore implements FastifyRateLimitStore {
    private readonly keyPrefix: string;
    /** One counter per window length (routes may set their own). */
    private readonly counters = new Map<number, RateLimiterRedis>();

    constructor(options: ChildOptions, keyPrefix = `${prefix}global`) {
      // A plain fixed window only; refuse settings it would silently ignore.
      if (options.continueExceeding || options.exponentialBackoff) {
        throw new Error('rate limits: continueExceeding/exponentialBackoff are not supported with Redis');
      }
      this.keyPrefix = keyPrefix;
    }

    private counter(timeWindow: number): RateLimiterRedis {
      let counter = this.counters.get(timeWindow);
      if (!counter) {
        counter = new RateLimiterRedis({
          storeClient: client,
          useRedisPackage: true,
          keyPrefix: this.keyPrefix,
          points: Number.MAX_SAFE_INTEGER,
          duration: timeWindow / 1000,
        });
        this.counters.set(timeWindow, counter);
      }
      return counter;
    }

    incr(key: string, callback: IncrCallback, timeWindow: number): void {
      this.counter(timeWindow)
        .consume(key)
        .then(
          (res) => callback(null, { current: res.consumedPoints, ttl: res.msBeforeNext }),
          (err: unknown) => {
            report(err, 'request limits');
            callback(err instanceof Error ? err : new Error(String(err)));
          },
        );
    }

    child(routeOptions: object): FastifyRateLimitStore {
      const options = routeOptions as ChildOptions; // the plugin's merged params, typed loosely upstream
      return new RedisRateLimitStore(options, `${prefix}route:${routeId(options)}`);
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

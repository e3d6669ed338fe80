import rateLimit from '@fastify/rate-limit';
import { rateLimitText } from '@guildhall/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { clientAddressKey } from '../client-address.ts';
import { fail } from '../errors.ts';
import { throttledRedisWarnings } from '../redis-helpers.ts';
import type { FailureLimiter } from './failure-limiter.ts';
import { createMemoryFailureLimiter } from './memory-failure-limiter.ts';
import { connectRateLimitRedis } from './redis-client.ts';
import { createRedisFailureLimiter } from './redis-failure-limiter.ts';
import { redisRateLimitStore } from './redis-store.ts';

export type { Attempt, FailureLimiter } from './failure-limiter.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * A failure limiter named `name` (its own counts): shared through Redis when REDIS_URL is set,
     * otherwise in this process.
     */
    createFailureLimiter(name: string, max: number, windowMs: number): FailureLimiter;
  }
}

export type RateLimitOptions = {
  /** Prefix of every rate-limit key in Redis; instances sharing it share budgets (default `guildhall:rl:`). */
  redisPrefix?: string;
  /** Requests the global limit does not count (the web app's own files: see registerRateLimits). */
  exempt?: (req: FastifyRequest) => boolean;
};

/**
 * Registers the request limits (global 1200/minute per address, routes may set their own with
 * `config.rateLimit`) and `app.createFailureLimiter`. With REDIS_URL all counts live in Redis, so N
 * instances enforce the documented limits together rather than N times over.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  deps: { config: Config; rateLimit?: RateLimitOptions },
): Promise<void> {
  const prefix = deps.rateLimit?.redisPrefix ?? 'guildhall:rl:';
  const redis = deps.config.redisUrl ? await connectRateLimitRedis(deps.config.redisUrl, app.log) : undefined;
  const report = throttledRedisWarnings(app.log, 'rate limits');
  if (redis) {
    app.addHook('onClose', () => redis.close());
    app.log.info('rate limits: counting in Redis');
  }

  await app.register(rateLimit, {
    global: true,
    max: 1200,
    timeWindow: '1 minute',
    // IPv6 clients by /64: one subscriber usually holds the whole /64.
    keyGenerator: (req) => clientAddressKey(req.ip),
    // The web app's own files are not counted: one page load fetches dozens of them, so members behind
    // one address (a school, a shared flat) would use up the budget just by opening the portal, and a
    // 429 on a script leaves a blank page. They are files that exist (a fixed set), never API calls.
    allowList: (req) => deps.rateLimit?.exempt?.(req) ?? false,
    errorResponseBuilder: (_req, ctx) => fail('RATE_LIMITED', rateLimitText(Math.ceil(ctx.ttl / 1000))),
    // A general limiter that cannot count lets requests through (the store logs a warning) instead of 500s.
    ...(redis ? { store: redisRateLimitStore(redis.client, prefix, report), skipOnError: true } : {}),
  });

  app.decorate('createFailureLimiter', (name: string, max: number, windowMs: number) => {
    const memory = createMemoryFailureLimiter(max, windowMs);
    if (!redis) return memory;
    return createRedisFailureLimiter({
      client: redis.client,
      name: `${name} failures`,
      keyPrefix: `${prefix}fail:${name}`,
      max,
      windowMs,
      fallback: memory,
      report,
    });
  });
}

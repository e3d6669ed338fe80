import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FailureLimiter } from './failure-limiter.ts';
import { createMemoryFailureLimiter } from './memory-failure-limiter.ts';
import type { RedisClient } from './redis-client.ts';
import { connectRateLimitRedis, type RateLimitRedis } from './redis-client.ts';
import { createRedisFailureLimiter } from './redis-failure-limiter.ts';
import { deleteRedisKeys, listRedisKeys, uniqueRedisPrefix } from './testing.ts';

const WINDOW = 15 * 60 * 1000;
const redisUrl = process.env.TEST_REDIS_URL;
const silentLog = { debug: () => {}, info: () => {}, warn: () => {} } as unknown as Parameters<
  typeof connectRateLimitRedis
>[1]; // only these three are called

describe('Redis failure limiter while Redis is unreachable', () => {
  it('falls back to this instance’s own count (still limited), and reports the outage', async () => {
    const reports: string[] = [];
    const down: RedisClient = {
      eval: async () => {
        throw new Error('The client is offline');
      },
    };
    const limiter = createRedisFailureLimiter({
      client: down,
      name: 'test failures',
      keyPrefix: 'p:',
      max: 3,
      windowMs: WINDOW,
      fallback: createMemoryFailureLimiter(3, WINDOW),
      report: (_err, what) => reports.push(what),
    });
    for (let i = 0; i < 3; i += 1) expect((await limiter.begin('a')).isAllowed).toBe(true);
    const refused = await limiter.begin('a');
    expect(refused.isAllowed).toBe(false);
    expect(reports[0]).toBe('test failures');
  });

  it('forgive() never rejects when Redis goes away between begin and forgive', async () => {
    let isUp = true;
    const reports: unknown[] = [];
    // Answers EVAL as Redis would for a first attempt ([consumed, ttl ms]) while up.
    const client: RedisClient = {
      eval: async () => {
        if (!isUp) throw new Error('The client is offline');
        return [1, WINDOW];
      },
    };
    const limiter = createRedisFailureLimiter({
      client,
      name: 'test failures',
      keyPrefix: 'p:',
      max: 3,
      windowMs: WINDOW,
      fallback: createMemoryFailureLimiter(3, WINDOW),
      report: (err) => reports.push(err),
    });
    const attempt = await limiter.begin('a');
    if (!attempt.isAllowed) throw new Error('refused');
    isUp = false;
    await expect(attempt.forgive()).resolves.toBeUndefined();
    expect(reports).toHaveLength(1);
  });
});

// Two limiters on one Redis stand for two server instances (CI sets TEST_REDIS_URL).
describe.skipIf(!redisUrl)('Redis failure limiter (shared through Redis)', () => {
  let redis: RateLimitRedis;
  const prefix = uniqueRedisPrefix();

  const limiter = (max: number, windowMs = WINDOW): FailureLimiter =>
    createRedisFailureLimiter({
      client: redis.client,
      name: 'test failures',
      keyPrefix: `${prefix}fail`,
      max,
      windowMs,
      fallback: {
        begin: () => {
          throw new Error('the fallback must not be used while Redis is up');
        },
      },
      report: (err) => {
        throw err;
      },
    });

  beforeAll(async () => {
    redis = await connectRateLimitRedis(redisUrl!, silentLog);
  });
  afterAll(async () => {
    await redis?.close();
    await deleteRedisKeys(redisUrl!, prefix);
  });

  it('counts failures from every instance against one limit', async () => {
    const one = limiter(10);
    const two = limiter(10);
    for (let i = 0; i < 10; i += 1) expect((await (i % 2 ? one : two).begin('shared')).isAllowed).toBe(true);
    for (const instance of [one, two]) {
      const refused = await instance.begin('shared');
      if (refused.isAllowed) throw new Error('allowed an 11th failure');
      expect(refused.retryAfterSeconds).toBeGreaterThan(890);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(900);
    }
    expect((await one.begin('other')).isAllowed).toBe(true);
  });

  it('does not count forgiven attempts', async () => {
    const one = limiter(2);
    const two = limiter(2);
    for (let i = 0; i < 5; i += 1) {
      const attempt = await (i % 2 ? one : two).begin('forgiven');
      if (!attempt.isAllowed) throw new Error('refused a key with no failures');
      await attempt.forgive();
    }
    expect((await one.begin('forgiven')).isAllowed).toBe(true);
    expect((await two.begin('forgiven')).isAllowed).toBe(true);
    expect((await one.begin('forgiven')).isAllowed).toBe(false);
  });

  it('lets exactly the limit through when attempts arrive in parallel on both instances', async () => {
    const one = limiter(10);
    const two = limiter(10);
    const attempts = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? one : two).begin('burst')),
    );
    expect(attempts.filter((a) => a.isAllowed)).toHaveLength(10);
  });

  it('lets the key try again once its failures have left the window', async () => {
    const shortWindow = limiter(1, 1000); // Redis expires keys in whole seconds
    expect((await shortWindow.begin('expiring')).isAllowed).toBe(true);
    expect(await shortWindow.begin('expiring')).toEqual({ isAllowed: false, retryAfterSeconds: 1 });
    // Redis's own clock moves the failure out of the window and drops the key: wait for that.
    await expect.poll(() => listRedisKeys(redisUrl!, `${prefix}fail:expiring`), { interval: 50 }).toEqual([]);
    expect((await shortWindow.begin('expiring')).isAllowed).toBe(true);
  });
});

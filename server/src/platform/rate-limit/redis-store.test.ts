import type { FastifyRateLimitOptions, FastifyRateLimitStore } from '@fastify/rate-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRateLimitRedis, type RateLimitRedis, type RedisClient } from './redis-client.ts';
import { redisRateLimitStore } from './redis-store.ts';
import { deleteRedisKeys, listRedisKeys, uniqueRedisPrefix } from './testing.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const silentLog = { debug: () => {}, info: () => {}, warn: () => {} } as unknown as Parameters<
  typeof connectRateLimitRedis
>[1]; // only these three are called

const globalOptions: FastifyRateLimitOptions = { max: 5, timeWindow: 60_000 };

function incr(store: FastifyRateLimitStore, key: string, timeWindow = 60_000) {
  return new Promise<{ current: number; ttl: number }>((resolve, reject) => {
    store.incr(key, (err, res) => (err ? reject(err) : resolve(res!)), timeWindow, 5);
  });
}

/** What the plugin passes to child() for a route with its own `config.rateLimit`. */
function routeOptions(method: string, url: string) {
  return { ...globalOptions, routeInfo: { method, url } } as unknown as Parameters<
    FastifyRateLimitStore['child']
  >[0]; // the plugin's typings omit routeInfo, which it does pass
}

describe('Redis rate-limit store while Redis is unreachable', () => {
  it('reports and hands the error to the plugin (which skips the limit rather than failing the request)', async () => {
    const reports: string[] = [];
    const down: RedisClient = {
      eval: async () => {
        throw new Error('The client is offline');
      },
    };
    const Store = redisRateLimitStore(down, 'p:', (_err, what) => reports.push(what));
    await expect(incr(new Store(globalOptions), '10.0.0.1')).rejects.toThrow('offline');
    expect(reports).toEqual(['request limits']);
  });

  it('refuses settings its fixed window would silently ignore', () => {
    const Store = redisRateLimitStore({ eval: async () => [1, 1] }, 'p:', () => {});
    expect(() => new Store({ ...globalOptions, continueExceeding: true })).toThrow('not supported');
  });
});

// Two store instances on one Redis stand for two server instances (CI sets TEST_REDIS_URL).
describe.skipIf(!redisUrl)('Redis rate-limit store', () => {
  let redis: RateLimitRedis;
  const prefix = uniqueRedisPrefix();

  beforeAll(async () => {
    redis = await connectRateLimitRedis(redisUrl!, silentLog);
  });
  afterAll(async () => {
    await redis?.close();
    await deleteRedisKeys(redisUrl!, prefix);
  });

  it('counts in one fixed window across instances and reports its remaining time', async () => {
    const report = (err: unknown) => {
      throw err;
    };
    const one = new (redisRateLimitStore(redis.client, prefix, report))(globalOptions);
    const two = new (redisRateLimitStore(redis.client, prefix, report))(globalOptions);
    const first = await incr(one, '10.0.0.1');
    expect(first.current).toBe(1);
    expect(first.ttl).toBeGreaterThan(59_000);
    expect(first.ttl).toBeLessThanOrEqual(60_000);
    const second = await incr(two, '10.0.0.1');
    expect(second.current).toBe(2);
    expect(second.ttl).toBeGreaterThan(59_000);
    expect(second.ttl).toBeLessThanOrEqual(60_000);
    expect((await incr(one, '10.0.0.2')).current).toBe(1);
  });

  it('keeps each route with its own limit apart from the global count and from other routes', async () => {
    const Store = redisRateLimitStore(redis.client, prefix, () => {});
    const global = new Store(globalOptions);
    const login = global.child(routeOptions('POST', '/api/auth/discord'));
    const move = global.child(routeOptions('POST', '/api/games/tic-tac-toe/move'));
    await incr(global, '10.0.0.9');
    await incr(login, '10.0.0.9');
    await incr(login, '10.0.0.9');
    expect((await incr(login, '10.0.0.9')).current).toBe(3);
    expect((await incr(move, '10.0.0.9')).current).toBe(1);
    expect((await incr(global, '10.0.0.9')).current).toBe(2);
    expect((await listRedisKeys(redisUrl!, prefix)).filter((k) => k.endsWith('10.0.0.9'))).toEqual([
      `${prefix}global:10.0.0.9`,
      `${prefix}route:POST/api/auth/discord:10.0.0.9`,
      `${prefix}route:POST/api/games/tic-tac-toe/move:10.0.0.9`,
    ]);
  });

  it('starts a new window once the old one has expired', async () => {
    const store = new (redisRateLimitStore(redis.client, prefix, () => {}))(globalOptions);
    // Redis expires keys in whole seconds: the shortest window is one.
    await incr(store, 'short', 1000);
    expect((await incr(store, 'short', 1000)).current).toBe(2);
    // Redis's own clock ends the window: wait until it has dropped the key.
    await expect.poll(() => listRedisKeys(redisUrl!, `${prefix}global:short`), { interval: 50 }).toEqual([]);
    const fresh = await incr(store, 'short', 1000);
    expect(fresh.current).toBe(1);
    expect(fresh.ttl).toBeGreaterThan(0);
    expect(fresh.ttl).toBeLessThanOrEqual(1000);
  });
});

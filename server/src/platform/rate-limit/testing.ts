import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { createClient } from 'redis';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.ts';

/** Test helpers for the Redis-backed rate limits (used only when TEST_REDIS_URL is set). */

/** A key prefix of its own, so test files running in parallel on one Redis never share a budget. */
export function uniqueRedisPrefix(): string {
  return `guildhall-test:rl:${randomBytes(6).toString('hex')}:`;
}

/** App options giving an instance Redis keys of the test's own: instances built with one share budgets. */
export function testPlatform(redisPrefix: string) {
  return {
    rateLimit: { redisPrefix },
    realtime: { redisKey: `guildhall-test-${randomBytes(6).toString('hex')}` },
  };
}

/**
 * Two app instances on one Redis, as behind a load balancer, with keys of their own: started before the
 * suite's tests and closed (their keys deleted) after. Read `one` and `two` inside the tests.
 */
export function twoInstancesOnRedis(redisUrl: string): { one: TestContext; two: TestContext } {
  const prefix = uniqueRedisPrefix();
  const apps = {} as { one: TestContext; two: TestContext }; // filled before any test runs
  beforeAll(async () => {
    const platform = testPlatform(prefix);
    apps.one = await createTestApp({ REDIS_URL: redisUrl }, undefined, platform);
    apps.two = await createTestApp({ REDIS_URL: redisUrl }, undefined, platform);
  });
  afterAll(async () => {
    await apps.two?.close();
    await apps.one?.close();
    await deleteRedisKeys(redisUrl, prefix);
  });
  return apps;
}

/** Asserts the spec's 429: Retry-After within the window and the same number in the message. */
export function expectRateLimited(res: LightMyRequestResponse, windowSeconds: number): void {
  expect(res.statusCode).toBe(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(res.json()).toEqual({
    success: false,
    error: `Rate limit exceeded. Please try again after ${retryAfter} seconds`,
    code: 'RATE_LIMITED',
  });
}

/** Lists the keys under `prefix`. */
export async function listRedisKeys(url: string, prefix: string): Promise<string[]> {
  const client = createClient({ url });
  await client.connect();
  try {
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) keys.push(...batch);
    return keys.sort();
  } finally {
    await client.close();
  }
}

/** Deletes the keys under `prefix` (and nothing else: other runs may share this Redis). */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const keys = await listRedisKeys(url, prefix);
  if (keys.length === 0) return;
  const client = createClient({ url });
  await client.connect();
  try {
    await client.del(keys);
  } finally {
    await client.close();
  }
}

export type RedisProxy = {
  /** A redis:// URL that reaches Redis through the proxy. */
  url: string;
  /** Drops every connection and refuses new ones: Redis becomes unreachable. */
  cut(): void;
  /** Lets connections through again (clients reconnect by themselves). */
  restore(): void;
  /**
   * Resolves when a client next tries to reconnect while the proxy is cut: proof that the outage
   * reached the clients (rather than waiting a fixed time and hoping).
   */
  nextRefusedConnection(): Promise<void>;
  close(): Promise<void>;
};

/** A TCP proxy in front of Redis, so a test can make Redis unreachable for one app only. */
export async function startRedisProxy(redisUrl: string): Promise<RedisProxy> {
  const target = new URL(redisUrl);
  const sockets = new Set<net.Socket>();
  let isUp = true;
  let refusedWaiters: (() => void)[] = [];
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const dropAll = () => {
    for (const s of sockets) s.destroy();
  };
  const server = net.createServer((client) => {
    if (!isUp) {
      client.destroy();
      for (const resolve of refusedWaiters) resolve();
      refusedWaiters = [];
      return;
    }
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(redisUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    cut() {
      isUp = false;
      dropAll();
    },
    restore() {
      isUp = true;
    },
    nextRefusedConnection() {
      return new Promise<void>((resolve) => refusedWaiters.push(resolve));
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      dropAll();
      await closed;
    },
  };
}

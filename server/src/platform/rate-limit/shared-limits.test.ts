import { describe, expect, it } from 'vitest';
import type { TestContext } from '../../test/app.ts';
import { expectRateLimited, twoInstancesOnRedis } from './testing.ts';

const redisUrl = process.env.TEST_REDIS_URL;

// Two server instances on one Redis, as behind a load balancer (CI sets TEST_REDIS_URL).
describe.skipIf(!redisUrl)('request limits across two server instances (Redis)', () => {
  const apps = twoInstancesOnRedis(redisUrl ?? '');

  it('the global limit (1200 a minute per address) counts requests to both instances together', async () => {
    const ip = '10.20.0.1';
    const get = (ctx: TestContext) =>
      ctx.app.inject({ method: 'GET', url: '/api/config', remoteAddress: ip });
    const statuses: number[] = [];
    for (let batch = 0; batch < 12; batch += 1) {
      const replies = await Promise.all(
        Array.from({ length: 100 }, (_, i) => get(i % 2 ? apps.one : apps.two)),
      );
      statuses.push(...replies.map((r) => r.statusCode));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(1200);
    expectRateLimited(await get(apps.one), 60);
    expectRateLimited(await get(apps.two), 60);
    // Another address has its own budget.
    expect(
      (await apps.one.app.inject({ method: 'GET', url: '/api/config', remoteAddress: '10.20.0.2' }))
        .statusCode,
    ).toBe(200);
  });

  it('a route with its own limit (Discord sign-in, 30 a minute) shares it too, apart from the global count', async () => {
    const ip = '10.20.0.3';
    const post = (ctx: TestContext) =>
      ctx.app.inject({ method: 'POST', url: '/api/auth/discord', payload: {}, remoteAddress: ip });
    for (let i = 0; i < 30; i += 1) {
      const res = await post(i % 2 ? apps.one : apps.two);
      expect(res.statusCode).toBe(400); // counted, then refused for its empty body
      expect(res.headers['x-ratelimit-remaining']).toBe(String(29 - i));
    }
    expectRateLimited(await post(apps.one), 60);
    expectRateLimited(await post(apps.two), 60);
    // The global budget of the same address was not spent by those 32 requests.
    const other = await apps.two.app.inject({ method: 'GET', url: '/api/config', remoteAddress: ip });
    expect(other.statusCode).toBe(200);
    expect(other.headers['x-ratelimit-remaining']).toBe('1199');
  });
});

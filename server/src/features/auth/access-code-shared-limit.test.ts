import { TEXTS } from '@guildhall/common';
import { describe, expect, it } from 'vitest';
import { expectRateLimited, twoInstancesOnRedis } from '../../platform/rate-limit/testing.ts';
import { TEST_ACCESS_CODE, type TestContext } from '../../test/app.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const WINDOW_SECONDS = 15 * 60;

// Two server instances on one Redis, as behind a load balancer (CI sets TEST_REDIS_URL).
describe.skipIf(!redisUrl)('access-code failure limit across two server instances (Redis)', () => {
  const apps = twoInstancesOnRedis(redisUrl ?? '');
  const signIn = (ctx: TestContext, code: string, ip: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/auth/access-code', payload: { code }, remoteAddress: ip });

  it('10 failures in total over both instances block the address on both; successes never count', async () => {
    const ip = '10.40.0.1';
    for (let i = 0; i < 10; i += 1) {
      // A right code between the wrong ones, alternately on each instance: never counted.
      expect((await signIn(i % 2 ? apps.two : apps.one, TEST_ACCESS_CODE, ip)).statusCode).toBe(200);
      const wrong = await signIn(i % 2 ? apps.one : apps.two, `wrong-${i}`, ip);
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().error).toBe(TEXTS.invalidAccessCode);
    }
    for (const ctx of [apps.one, apps.two]) {
      const blocked = await signIn(ctx, TEST_ACCESS_CODE, ip);
      expectRateLimited(blocked, WINDOW_SECONDS);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(WINDOW_SECONDS - 60);
    }
    // Another address is unaffected.
    expect((await signIn(apps.two, TEST_ACCESS_CODE, '10.40.0.2')).statusCode).toBe(200);
  });

  it('parallel wrong guesses over both instances get exactly 10 tries', async () => {
    const ip = '10.40.0.3';
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) => signIn(i % 2 ? apps.one : apps.two, `guess-${i}`, ip)),
    );
    const statuses = replies.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
  });
});

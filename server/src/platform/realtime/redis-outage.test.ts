import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.ts';
import { deadline } from '../../test/time-scale.ts';
import { type RedisProxy, startRedisProxy, testPlatform, uniqueRedisPrefix } from '../rate-limit/testing.ts';

const redisUrl = process.env.TEST_REDIS_URL;

// Redis going away under a running instance (CI sets TEST_REDIS_URL).
describe.skipIf(!redisUrl)('realtime fan-out when Redis goes away', () => {
  let proxy: RedisProxy;
  let ctx: TestContext | undefined;
  afterAll(async () => {
    await proxy?.close();
  });

  it('publishing keeps working locally without unhandled errors, and the app still closes promptly', async () => {
    proxy = await startRedisProxy(redisUrl!);
    ctx = await createTestApp({ REDIS_URL: proxy.url }, undefined, testPlatform(uniqueRedisPrefix()));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      ctx.app.realtime.publish('some-room', 'some-event', { n: 0 });
      const refused = proxy.nextRefusedConnection();
      proxy.cut();
      for (let n = 1; n <= 20; n += 1) ctx.app.realtime.publish('some-room', 'some-event', { n });
      // The clients have seen the outage and are reconnecting; the publishes' failures have settled.
      await refused;
      await new Promise((resolve) => setImmediate(resolve));
      const started = Date.now();
      await ctx.close();
      expect(Date.now() - started).toBeLessThan(deadline(3000));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

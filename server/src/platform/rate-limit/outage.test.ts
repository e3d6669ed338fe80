import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { deadline } from '../../test/time-scale.ts';
import { fail, registerErrorHandling } from '../errors.ts';
import { registerRateLimits } from './index.ts';
import {
  deleteRedisKeys,
  expectRateLimited,
  type RedisProxy,
  startRedisProxy,
  uniqueRedisPrefix,
} from './testing.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/**
 * Just the platform's rate limits on a bare app (the full app's realtime fan-out also uses REDIS_URL,
 * and its shutdown waits for Redis), reaching Redis through a proxy the test can cut.
 */
async function buildLimitedApp(url: string, prefix: string, logs: string[]): Promise<FastifyInstance> {
  const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => logs.push(line) } } });
  registerErrorHandling(app);
  await registerRateLimits(app, { config: { redisUrl: url } as Config, rateLimit: { redisPrefix: prefix } });
  app.get('/ping', async () => ({ ok: true }));
  // Shaped like the access-code route: a wrong guess keeps counting, anything else is forgiven.
  app.register(async (scope) => {
    const guesses = scope.createFailureLimiter('guess', 3, 60_000);
    scope.post<{ Body: { guess: string } }>('/guess', async (req, reply) => {
      const attempt = await guesses.begin(req.ip);
      if (!attempt.isAllowed) {
        reply.header('retry-after', String(attempt.retryAfterSeconds));
        throw fail(
          'RATE_LIMITED',
          `Rate limit exceeded. Please try again after ${attempt.retryAfterSeconds} seconds`,
        );
      }
      if (req.body.guess === 'right') {
        await attempt.forgive();
        return { ok: true };
      }
      throw fail('UNAUTHORIZED', 'wrong');
    });
  });
  await app.ready();
  return app;
}

describe.skipIf(!redisUrl)('rate limits when Redis becomes unreachable', () => {
  const prefix = uniqueRedisPrefix();
  let proxy: RedisProxy;
  let app: FastifyInstance;
  const logs: string[] = [];
  const warnings = (what: string) =>
    logs.filter((line) => line.includes(`"rate limits: Redis unavailable for ${what}"`));
  const ping = (ip: string) => app.inject({ method: 'GET', url: '/ping', remoteAddress: ip });
  const guess = (value: string, ip: string) =>
    app.inject({ method: 'POST', url: '/guess', payload: { guess: value }, remoteAddress: ip });

  beforeAll(async () => {
    proxy = await startRedisProxy(redisUrl!);
    app = await buildLimitedApp(proxy.url, prefix, logs);
    expect((await ping('10.30.0.1')).headers['x-ratelimit-remaining']).toBe('1199');
    proxy.cut();
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await deleteRedisKeys(redisUrl!, prefix);
  });

  it('requests go through uncounted (fail open) instead of failing with 500, without waiting on Redis', async () => {
    const started = Date.now();
    for (let i = 0; i < 20; i += 1) {
      const res = await ping('10.30.0.1');
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe('1200');
    }
    expect(Date.now() - started).toBeLessThan(deadline(2000));
    // One warning for the outage, not one per request.
    expect(warnings('request limits')).toHaveLength(1);
  });

  it('failures are still limited, by this instance’s own count, and a success still does not count', async () => {
    expect((await guess('right', '10.30.0.2')).statusCode).toBe(200);
    for (let i = 0; i < 3; i += 1) expect((await guess('wrong', '10.30.0.2')).statusCode).toBe(401);
    expectRateLimited(await guess('right', '10.30.0.2'), 60);
    expect((await guess('right', '10.30.0.3')).statusCode).toBe(200);
    expect(warnings('guess failures')).toHaveLength(1);
  });

  it('counting in Redis resumes by itself once Redis is back', async () => {
    proxy.restore();
    // Uncounted (1200 left) until the client has reconnected; the first counted request leaves 1199.
    await expect
      .poll(async () => String((await ping('10.30.0.4')).headers['x-ratelimit-remaining']), {
        interval: 50,
      })
      .toBe('1199');
    // The count from before the outage is still there.
    expect((await ping('10.30.0.1')).headers['x-ratelimit-remaining']).toBe('1198');
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { ReadinessResponse } from '@guildhall/common';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createPgSchema, createTestApp, TEST_ACCESS_CODE, type TestContext } from '../../test/app.ts';
import { deadline } from '../../test/time-scale.ts';
import { startRedisProxy } from '../rate-limit/testing.ts';
import { createReadinessChecks } from './readiness.ts';
import { redactUrl } from './redact.ts';
import { createRedisPing } from './redis-ping.ts';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

const ROOT_PACKAGE = new URL('../../../../package.json', import.meta.url);

describe('GET /healthz and /readyz (issue 16: never the web app, 503 when a dependency is down)', () => {
  it('answers liveness and readiness in JSON, with the database and migrations checked', async () => {
    ctx = await createTestApp();
    const live = await ctx.app.inject({ url: '/healthz' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({
      status: 'ok',
      version: JSON.parse(fs.readFileSync(ROOT_PACKAGE, 'utf8')).version,
    });
    expect(live.json().version).toMatch(/^\d+\.\d+\.\d+/);
    const ready = await ctx.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    const body = ReadinessResponse.parse(ready.json());
    expect(body.status).toBe('ready');
    expect(body.checks.database).toEqual({ ok: true });
    expect(body.checks.migrations).toEqual({ ok: true });
    expect(body.checks.fileStore).toEqual({ ok: true });
  });

  it('answers 503 naming the file store when its directory cannot be written', async () => {
    ctx = await createTestApp();
    fs.rmSync(path.join(ctx.dataDir, 'blobs'), { recursive: true, force: true });
    const res = await ctx.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(ReadinessResponse.parse(res.json()).checks.fileStore?.ok).toBe(false);
  });

  it('answers 503 naming the database when it cannot be queried', async () => {
    ctx = await createTestApp();
    await ctx.db.destroy();
    const res = await ctx.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(503);
    const body = ReadinessResponse.parse(res.json());
    expect(body.status).toBe('not ready');
    expect(body.checks.database?.ok).toBe(false);
    // Reopen nothing: close() destroys again, which Kysely tolerates.
  });

  it('an optional dependency that fails reports degraded (200) instead of failing readiness', async () => {
    ctx = await createTestApp();
    ctx.app.readiness.add(
      'music',
      async () => {
        throw new Error('gateway down');
      },
      { optional: true },
    );
    const res = await ctx.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    const body = ReadinessResponse.parse(res.json());
    expect(body.status).toBe('degraded');
    expect(body.checks.music).toEqual({ ok: false, optional: true, error: 'gateway down' });
    expect(body.checks.database?.ok).toBe(true);
  });

  it('a probe that hangs counts as failed once its timeout passes', async () => {
    const checks = createReadinessChecks(50);
    checks.add('hangs', () => new Promise(() => {}));
    checks.add('fine', async () => {});
    const result = await checks.run();
    expect(result.fine).toEqual({ ok: true });
    expect(result.hangs?.ok).toBe(false);
    expect(result.hangs?.error).toMatch(/no answer within 50 ms/);
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('readiness follows Redis', () => {
  it('fails while Redis is unreachable and recovers by itself when it returns', async () => {
    const proxy = await startRedisProxy(process.env.TEST_REDIS_URL as string);
    const redis = createRedisPing(proxy.url);
    try {
      await expect(redis.ping()).resolves.toBeUndefined();
      proxy.cut();
      await expect
        .poll(() =>
          redis.ping().then(
            () => 'up',
            () => 'down',
          ),
        )
        .toBe('down');
      proxy.restore();
      await expect
        .poll(() =>
          redis.ping().then(
            () => 'up',
            () => 'down',
          ),
        )
        .toBe('up');
    } finally {
      await redis.close();
      await proxy.close();
    }
  });
});

describe('GET /metrics (issue 16: Prometheus, behind METRICS_TOKEN)', () => {
  it('is off without METRICS_TOKEN', async () => {
    ctx = await createTestApp();
    const res = await ctx.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('METRICS_DISABLED');
  });

  it('refuses a wrong token and shows request counters moving with the right one', async () => {
    ctx = await createTestApp({ METRICS_TOKEN });
    const wrong = await ctx.app.inject({ url: '/metrics', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);

    const scrape = async () =>
      (await ctx!.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } }))
        .body;
    const countOf = (text: string) =>
      Number(
        /http_requests_total\{method="GET",route="\/api\/config",status_code="200"\} (\d+)/.exec(text)?.[1] ??
          0,
      );

    const before = countOf(await scrape());
    await ctx.app.inject({ url: '/api/config' });
    await ctx.app.inject({ url: '/api/config' });
    const after = await scrape();
    expect(countOf(after)).toBe(before + 2);
    expect(after).toMatch(
      /http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/config"/,
    );
    expect(after).toMatch(/^realtime_sockets \d+$/m);
    expect(after).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('counts 429 refusals by route', async () => {
    ctx = await createTestApp({ METRICS_TOKEN });
    for (let i = 0; i < 12; i++) {
      await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/access-code',
        payload: { code: 'wrong-code-x' },
      });
    }
    const text = (
      await ctx.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).body;
    expect(
      Number(/rate_limit_refusals_total\{route="\/api\/auth\/access-code"\} (\d+)/.exec(text)?.[1]),
    ).toBeGreaterThan(0);
  });
});

describe('logs (issue 16: tickets and tokens never written)', () => {
  it('redacts credential query parameters', () => {
    expect(redactUrl('/download/abc?ticket=s3cr3t&x=1')).toBe('/download/abc?ticket=[redacted]&x=1');
    expect(redactUrl('/auth/discord/callback?code=c0de&state=st4te')).toBe(
      '/auth/discord/callback?code=[redacted]&state=[redacted]',
    );
    expect(redactUrl('/api/files?folder=1')).toBe('/api/files?folder=1');
  });

  it('the request log line of a ticket download carries no ticket', async () => {
    const base = await createTestApp();
    const lines: string[] = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
    const app = await buildApp({
      config: { ...base.config, logLevel: 'info' },
      db: base.db,
      accessCode: TEST_ACCESS_CODE,
      logger: undefined,
      loggerStream: stream,
    });
    try {
      await app.inject({ url: '/download/some-file?ticket=very-secret-ticket' });
      expect(lines.join('')).toContain('/download/some-file?ticket=[redacted]');
      expect(lines.join('')).not.toContain('very-secret-ticket');
    } finally {
      await app.close();
      await base.close();
    }
  });
});

describe.runIf(process.env.TEST_DB === 'postgres' && process.env.TEST_DATABASE_URL)(
  'readiness follows PostgreSQL',
  () => {
    it('answers 503 within 2 s of the database going away and 200 again once it is back', async () => {
      const schema = await createPgSchema();
      const target = new URL(schema.url);
      // A TCP proxy in front of PostgreSQL, so the test can cut this app's database off alone.
      const proxy = await startRedisProxy(`redis://${target.hostname}:${target.port || 5432}`);
      const viaProxy = new URL(schema.url);
      viaProxy.port = new URL(proxy.url).port;
      try {
        ctx = await createTestApp({ DATABASE_URL: viaProxy.toString() }, 'sqlite');
        expect((await ctx.app.inject({ url: '/readyz' })).statusCode).toBe(200);
        proxy.cut();
        const cutAt = Date.now();
        const down = await ctx.app.inject({ url: '/readyz' });
        expect(down.statusCode).toBe(503);
        expect(ReadinessResponse.parse(down.json()).checks.database?.ok).toBe(false);
        expect(Date.now() - cutAt).toBeLessThan(deadline(2000));
        proxy.restore();
        await expect.poll(async () => (await ctx!.app.inject({ url: '/readyz' })).statusCode).toBe(200);
      } finally {
        await ctx?.close();
        ctx = undefined;
        await proxy.close();
        await schema.drop();
      }
    });
  },
);

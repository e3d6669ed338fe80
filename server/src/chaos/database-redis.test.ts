import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { type Db, migrateToLatest, openDb } from '../db/index.ts';
import { bootstrapUsers } from '../features/users/index.ts';
import { realClock } from '../platform/feature.ts';
import { testPlatform, uniqueRedisPrefix } from '../platform/rate-limit/testing.ts';
import { bearer, createPgSchema, TEST_ACCESS_CODE } from '../test/app.ts';
import { eventually } from '../test/eventually.ts';
import { buildSignedInUser } from '../test/factories.ts';
import { createTcpProxy, type TcpProxy } from '../test/tcp-proxy.ts';

/**
 * Chaos (issue 25): PostgreSQL and Redis go away while the portal is in use and come back. Each is reached
 * through a TCP proxy the test takes down (every connection cut, new ones refused, as during a restart)
 * and brings back on the same port. The process must stay up (an unhandled 'error' event or rejection
 * would end this test's worker), answer clearly meanwhile, and recover by itself.
 */
const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

type Running = { app: App; db: Db; dataDir: string; cleanup: () => Promise<void> };

async function startPortal(
  env: Record<string, string>,
  schema?: string,
  redisPrefix?: string,
): Promise<Running> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-chaos-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
  const db = openDb(config.databaseUrl);
  await migrateToLatest(db, schema);
  await bootstrapUsers(db, [], realClock);
  const app = await buildApp({
    config,
    db,
    accessCode: TEST_ACCESS_CODE,
    logger: false,
    ...(redisPrefix ? testPlatform(redisPrefix) : {}),
  });
  await app.ready();
  return {
    app,
    db,
    dataDir,
    async cleanup() {
      await app.close();
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
process.on('unhandledRejection', onUnhandled);
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

/** Waits for `check` to pass and returns how long that took. */
async function recovery(check: () => Promise<void>): Promise<number> {
  const started = Date.now();
  await eventually(check, { interval: 100 });
  return Date.now() - started;
}

describe.runIf(pgUrl)('PostgreSQL restarts while the portal is in use (issue 25)', () => {
  it('the process stays up, requests get a clear 503 while it is down, and it recovers by itself', async () => {
    const target = new URL(pgUrl as string);
    const proxy: TcpProxy = await createTcpProxy(Number(target.port || 5432), target.hostname);
    const schema = await createPgSchema();
    cleanups.push(schema.drop, proxy.close);
    const url = new URL(schema.url);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const portal = await startPortal({ DATABASE_URL: url.toString() }, schema.schema);
    cleanups.push(portal.cleanup);
    const { token } = await buildSignedInUser(portal.db, { access_level: 'user' });
    const use = () => portal.app.inject({ url: '/api/auth/validate', headers: bearer(token) });
    const folder = () =>
      portal.app.inject({
        method: 'POST',
        url: '/api/folders',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        payload: { name: `during-${Date.now()}` },
      });
    expect((await use()).statusCode).toBe(200);

    await proxy.down();
    // Down: every request that needs the database says so (503 with Retry-After), at once.
    for (const res of [await use(), await use(), await folder()]) {
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({
        success: false,
        error: 'The portal cannot reach its database right now. Please try again in a moment.',
        code: 'DATABASE_UNAVAILABLE',
      });
    }
    const live = await portal.app.inject({ url: '/healthz' });
    expect(live.statusCode).toBe(200);
    const ready = await portal.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.database.ok).toBe(false);

    await proxy.up();
    const took = await recovery(async () => {
      expect((await use()).statusCode).toBe(200);
    });
    console.log(`PostgreSQL back: requests served again after ${took} ms`);
    expect((await folder()).statusCode).toBeLessThan(300);
    expect((await portal.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    expect(unhandled).toEqual([]);
  });
});

describe.runIf(redisUrl)('Redis goes down and comes back while the portal is in use (issue 25)', () => {
  it('requests keep working (limits fail open), /readyz names Redis, and it recovers by itself', async () => {
    const target = new URL(redisUrl as string);
    const proxy = await createTcpProxy(Number(target.port || 6379), target.hostname);
    cleanups.push(proxy.close);
    const portal = await startPortal(
      { REDIS_URL: `redis://127.0.0.1:${proxy.port}` },
      undefined,
      uniqueRedisPrefix(),
    );
    cleanups.push(portal.cleanup);
    const { token } = await buildSignedInUser(portal.db, { access_level: 'user' });
    const use = () => portal.app.inject({ url: '/api/auth/validate', headers: bearer(token) });
    expect((await use()).statusCode).toBe(200);

    await proxy.down();
    for (let i = 0; i < 5; i++) expect((await use()).statusCode).toBe(200);
    const ready = await portal.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.redis.ok).toBe(false);

    await proxy.up();
    const took = await recovery(async () => {
      const res = await portal.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(200);
    });
    console.log(`Redis back: /readyz ready again after ${took} ms`);
    expect((await use()).statusCode).toBe(200);
    expect(unhandled).toEqual([]);
  });
});

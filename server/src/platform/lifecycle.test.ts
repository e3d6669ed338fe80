import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { MUSIC_STATUS_EVENT } from '@guildhall/common';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { allFeatures } from '../features/index.ts';
import { createTestApp } from '../test/app.ts';
import { eventually } from '../test/eventually.ts';
import { defineFeature, type FeatureContext } from './feature.ts';

describe("the platform's services close with the app (issue 24: nothing outlives it)", () => {
  it('the hash threads are ended on close, after the features that use them stopped', async () => {
    // A database and config to build a second app on (the test app's own is closed with it).
    const t = await createTestApp({}, 'sqlite', { features: ['auth'] });
    const seen: FeatureContext[] = [];
    const events: string[] = [];
    const probe = defineFeature({
      name: 'probe',
      routes: (ctx) => {
        seen.push(ctx);
        return async () => {};
      },
      // A feature stopping still finds the threads running: the platform closes them after every stop.
      stop: (ctx) => {
        events.push(`probe stopped, ${ctx.hashes.liveThreads} threads live`);
      },
    });
    const files = allFeatures().filter((f) => f.name === 'files');
    const app = await buildApp({
      config: t.config,
      db: t.db,
      accessCode: 'x'.repeat(12),
      logger: false,
      features: [...files, probe],
    });
    try {
      await app.ready(); // files' start warms both hash threads up
      const ctx = seen[0]!;
      expect(ctx.hashes.liveThreads).toBe(2);
      const hash = ctx.hashes.openFileHash();
      const buffer = new SharedArrayBuffer(3);
      new Uint8Array(buffer).set([97, 98, 99]);
      await hash.chunk(buffer, 3);
      expect(await hash.final()).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');

      await app.close();
      expect(events).toEqual(['probe stopped, 2 threads live']);
      expect(ctx.hashes.closed).toBe(true);
      expect(ctx.hashes.liveThreads).toBe(0);
      // A hash asked for after close is refused at once rather than starting a new thread.
      await expect(ctx.hashes.openFileHash().final()).rejects.toThrow(/closed/);
      expect(ctx.hashes.liveThreads).toBe(0);
    } finally {
      await app.close();
      await t.close();
    }
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

// Issue 42: on SIGTERM the music bot's last status was published after Redis had closed
// ("ClientClosedError: The client is closed", logged as "Redis unavailable for fan-out").
describe.skipIf(!redisUrl)('features stop before the Redis fan-out they publish through closes', () => {
  it('a publish made while a feature stops reaches Redis, and nothing is logged about a closed client', async () => {
    const t = await createTestApp({}, 'sqlite', { features: ['auth'] });
    const key = `guildhall-test-lifecycle-${randomBytes(6).toString('hex')}`;
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const probe = defineFeature({
      name: 'probe',
      routes: () => async () => {},
      stop: (ctx) => {
        ctx.publish('probe:1', MUSIC_STATUS_EVENT, {} as never);
      },
    });
    const subscriber = createClient({ url: redisUrl });
    await subscriber.connect();
    const received: string[] = [];
    await subscriber.pSubscribe(`${key}#*`, (_message, channel) => {
      received.push(channel);
    });
    const app = await buildApp({
      config: { ...t.config, redisUrl, logLevel: 'warn' },
      db: t.db,
      accessCode: 'x'.repeat(12),
      loggerStream: stream,
      realtime: { redisKey: key },
      features: [probe],
    });
    try {
      await app.ready();
      await app.close();
      await eventually(() => expect(received).toHaveLength(1));
      expect(lines.filter((l) => /Redis unavailable|ClientClosedError/.test(l))).toEqual([]);
    } finally {
      await app.close();
      await subscriber.close();
      await t.close();
    }
  });
});

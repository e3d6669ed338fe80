import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../test/manual-clock.ts';
import { waitOn } from '../feature.ts';
import { RangeLoopback } from './range-loopback.ts';

/**
 * The one Range server on loopback (issue 46): thumbnails' video posters and music's library songs read
 * stored bytes through it. An address serves one file, with Range, until it is released or its time runs
 * out on the injected clock; nothing else is served.
 */
const bytes = Buffer.from('0123456789abcdefghij');
const open = async (start: number, end: number) => Readable.from([bytes.subarray(start, end + 1)]);
const clock = manualClock();
const loopback = new RangeLoopback(clock);
afterAll(() => loopback.close());

describe('RangeLoopback', () => {
  it('serves the file whole, a range as 206, HEAD without a body, and 416 beyond its end', async () => {
    const { url } = await loopback.open(bytes.length, open, 60_000);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/t\/[\w-]{24}$/);
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(await whole.text()).toBe(bytes.toString());
    const part = await fetch(url, { headers: { range: 'bytes=5-9' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 5-9/20');
    expect(await part.text()).toBe('56789');
    const head = await fetch(url, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, '20', '']);
    const beyond = await fetch(url, { headers: { range: 'bytes=30-' } });
    expect([beyond.status, beyond.headers.get('content-range')]).toEqual([416, 'bytes */20']);
  });

  it('a released address, an expired one and a made-up one are 404; other methods too', async () => {
    const released = await loopback.open(bytes.length, open, 60_000);
    released.release();
    expect((await fetch(released.url)).status).toBe(404);
    const expiring = await loopback.open(bytes.length, open, 1_000);
    expect((await fetch(expiring.url, { method: 'POST' })).status).toBe(404);
    expect((await fetch(expiring.url)).status).toBe(200);
    await clock.advance(1_001);
    expect((await fetch(expiring.url)).status).toBe(404);
    expect((await fetch(expiring.url.replace(/\/t\/.*/, '/t/AAAAAAAAAAAAAAAAAAAAAAAA'))).status).toBe(404);
  });
});

describe('waitOn', () => {
  it('resolves when the clock passes the time, and rejects with the reason when aborted first', async () => {
    const c = manualClock();
    let done = false;
    const waiting = waitOn(c, 5_000).then(() => {
      done = true;
    });
    await c.advance(4_999);
    expect(done).toBe(false);
    await c.advance(1);
    await waiting;
    expect(done).toBe(true);
    const controller = new AbortController();
    const stopped = waitOn(c, 5_000, controller.signal);
    controller.abort(new Error('page went away'));
    await expect(stopped).rejects.toThrow('page went away');
    expect(c.pending()).toBe(0);
  });
});

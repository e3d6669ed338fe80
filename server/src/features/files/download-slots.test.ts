import { EventEmitter } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { type DownloadLimits, DownloadSlots, startDownload } from './download-limits.ts';

/**
 * The download slots' queue (docs/security.md, "Fair downloads"): a member's download past their share
 * waits for one of theirs to end, in the order asked; a stranger's never waits; the queue is bounded in
 * size and time, and a client that goes away leaves it.
 */
const limits = {
  perUser: 2,
  perAddress: 4,
  max: 10,
  idleTimeoutMs: 60_000,
  queuedPerUser: 2,
  queueWaitMs: 60_000,
};
const ann = { userId: 'ann', address: 'a' };

/**
 * Every test's slots, checked when it ends: no download is left waiting. A waiter left behind is
 * refused when its timer fires, long after its test, with nobody to take the refusal: an unhandled
 * rejection in whatever suite the worker runs by then (the server suites share their worker).
 */
const made: DownloadSlots[] = [];
const slotsFor = (l: DownloadLimits) => {
  const slots = new DownloadSlots(l);
  made.push(slots);
  return slots;
};
afterEach(() => {
  for (const slots of made.splice(0)) expect(slots.waiting, 'downloads left waiting').toBe(0);
});
const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  // Two turns of the microtask queue: long enough for an already granted slot to be seen.
  await Promise.resolve();
  await Promise.resolve();
  return done;
};

describe('download slots', () => {
  it('a member past their share waits and is handed the slot of the first download of theirs to end, in order', async () => {
    const slots = slotsFor(limits);
    const a = await slots.take(ann);
    const b = await slots.take(ann);
    const third = slots.take(ann);
    const fourth = slots.take(ann);
    expect(await settled(third)).toBe(false);
    expect(slots.waiting).toBe(2);
    a.release();
    expect(await settled(third)).toBe(true);
    expect(await settled(fourth)).toBe(false);
    b.release();
    await fourth;
    expect(slots.running).toBe(2);
    expect(slots.waiting).toBe(0);
  });

  it('past the queue’s places the next is refused with 429 at once; a stranger is never queued', async () => {
    const slots = slotsFor(limits);
    const running = [await slots.take(ann), await slots.take(ann)];
    const queued = [slots.take(ann), slots.take(ann)];
    await expect(slots.take(ann)).rejects.toMatchObject({ statusCode: 429, code: 'TOO_MANY_DOWNLOADS' });
    const stranger = { userId: null, address: 'z' };
    for (let i = 0; i < 4; i++) running.push(await slots.take(stranger));
    await expect(slots.take(stranger)).rejects.toMatchObject({ statusCode: 429 });
    // Ann's two running end: her two waiting are served, and everything given back leaves nothing held.
    for (const slot of running) slot.release();
    for (const slot of await Promise.all(queued)) slot.release();
    expect([slots.running, slots.waiting]).toEqual([0, 0]);
  });

  it('a client that goes away leaves the queue, and its place goes to the next', async () => {
    const slots = slotsFor({ ...limits, queuedPerUser: 1 });
    const a = await slots.take(ann);
    await slots.take(ann);
    const gone = new AbortController();
    const quitter = slots.take(ann, gone.signal);
    await expect(slots.take(ann)).rejects.toMatchObject({ statusCode: 429 });
    gone.abort();
    await expect(quitter).rejects.toMatchObject({ statusCode: 429 });
    expect(slots.waiting).toBe(0);
    const next = slots.take(ann);
    a.release();
    await next;
    expect(slots.running).toBe(2);
  });

  it('a wait longer than DOWNLOAD_QUEUE_WAIT_MS ends in 429; its place in the queue and every slot come back', async () => {
    const slots = slotsFor({ ...limits, queuedPerUser: 1, queueWaitMs: 20 });
    const a = await slots.take(ann);
    const b = await slots.take(ann);
    await expect(slots.take(ann)).rejects.toMatchObject({
      statusCode: 429,
      code: 'TOO_MANY_DOWNLOADS',
      headers: { 'retry-after': '10' },
    });
    expect(slots.waiting).toBe(0);
    // The refused one took nothing: its queue place waits again, and Ann's next is served when one ends.
    const next = slots.take(ann);
    expect(slots.waiting).toBe(1);
    a.release();
    (await next).release();
    b.release();
    expect([slots.running, slots.waiting]).toEqual([0, 0]);
    expect(await settled(slots.take(ann))).toBe(true);
  });

  it('a client gone before its download asks for a slot is refused at once, not queued', async () => {
    const slots = slotsFor(limits);
    await slots.take(ann);
    await slots.take(ann);
    const gone = new AbortController();
    gone.abort();
    const late = slots.take(ann, gone.signal);
    expect(await settled(late)).toBe(true);
    await expect(late).rejects.toMatchObject({ statusCode: 429, code: 'TOO_MANY_DOWNLOADS' });
    expect(slots.waiting).toBe(0);
  });

  it('a download whose client left while its route read the database takes no place in the queue', async () => {
    const slots = slotsFor(limits);
    await slots.take({ userId: 'ann', address: '127.0.0.1' });
    await slots.take({ userId: 'ann', address: '127.0.0.1' });
    // The response closed before startDownload: its 'close' event has been and will not come again.
    const raw = Object.assign(new EventEmitter(), { destroyed: true });
    // Only what startDownload reads of Fastify's request and reply.
    const request = { ip: '127.0.0.1', raw: { socket: null } } as unknown as FastifyRequest;
    const reply = { raw } as unknown as FastifyReply;
    const started = startDownload({ slots, idleTimeoutMs: 60_000 }, request, reply, 'ann');
    expect(await settled(started)).toBe(true);
    await expect(started).rejects.toMatchObject({ statusCode: 429 });
    expect(slots.waiting).toBe(0);
  });

  it('a full instance answers 503 at once, member or not; a waiting member is served once the instance has room', async () => {
    const slots = slotsFor({ ...limits, max: 2 });
    const bob = await slots.take({ userId: 'bob', address: 'b' });
    await slots.take({ userId: 'bob', address: 'b' });
    await expect(slots.take(ann)).rejects.toMatchObject({ statusCode: 503, code: 'DOWNLOADS_BUSY' });
    // Ann at her own share, the instance full: her next waits for one of hers, not for the instance.
    const slots2 = slotsFor({ ...limits, max: 3 });
    const a1 = await slots2.take(ann);
    await slots2.take(ann);
    await slots2.take({ userId: 'bob', address: 'b' });
    const waiting = slots2.take(ann);
    a1.release();
    await waiting;
    bob.release();
  });
});

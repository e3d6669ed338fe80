import { describe, expect, it } from 'vitest';
import { DownloadSlots } from './download-limits.ts';

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
    const slots = new DownloadSlots(limits);
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
    const slots = new DownloadSlots(limits);
    await slots.take(ann);
    await slots.take(ann);
    void slots.take(ann);
    void slots.take(ann);
    await expect(slots.take(ann)).rejects.toMatchObject({ statusCode: 429, code: 'TOO_MANY_DOWNLOADS' });
    const stranger = { userId: null, address: 'z' };
    for (let i = 0; i < 4; i++) await slots.take(stranger);
    await expect(slots.take(stranger)).rejects.toMatchObject({ statusCode: 429 });
  });

  it('a client that goes away leaves the queue, and its place goes to the next', async () => {
    const slots = new DownloadSlots({ ...limits, queuedPerUser: 1 });
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

  it('a wait longer than DOWNLOAD_QUEUE_WAIT_MS ends in 429', async () => {
    const slots = new DownloadSlots({ ...limits, queueWaitMs: 20 });
    await slots.take(ann);
    await slots.take(ann);
    await expect(slots.take(ann)).rejects.toMatchObject({ statusCode: 429 });
    expect(slots.waiting).toBe(0);
  });

  it('a full instance answers 503 at once, member or not; a waiting member is served once the instance has room', async () => {
    const slots = new DownloadSlots({ ...limits, max: 2 });
    const bob = await slots.take({ userId: 'bob', address: 'b' });
    await slots.take({ userId: 'bob', address: 'b' });
    await expect(slots.take(ann)).rejects.toMatchObject({ statusCode: 503, code: 'DOWNLOADS_BUSY' });
    // Ann at her own share, the instance full: her next waits for one of hers, not for the instance.
    const slots2 = new DownloadSlots({ ...limits, max: 3 });
    const a1 = await slots2.take(ann);
    await slots2.take(ann);
    await slots2.take({ userId: 'bob', address: 'b' });
    const waiting = slots2.take(ann);
    a1.release();
    await waiting;
    bob.release();
  });
});

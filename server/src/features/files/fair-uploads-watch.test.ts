import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { UploadSlots, UploadTooSlowError, watchBody } from './fair-uploads.ts';

/** The body timing of fair uploads on a fake clock: what counts as idle and as too slow. */

const limits = { idleTimeoutMs: 500, minBytesPerSecond: 10 * 1024, rateWindowMs: 1000 };

/**
 * Resolves after `ms` of the FAKE clock (every test here runs under vi.useFakeTimers and moves time
 * with advanceTimersByTimeAsync): no real time passes.
 */
function fakeClockDelay(ms: number): Promise<void> {
  return new Promise((wake) => {
    setTimeout(wake, ms);
  });
}

/** `count` pieces of `size` bytes, one every `everyMs` (count Infinity: endless). */
async function* paced(size: number, everyMs: number, count = Number.POSITIVE_INFINITY) {
  for (let i = 0; i < count; i++) {
    await fakeClockDelay(everyMs);
    yield new Uint8Array(size);
  }
}

async function drain(source: AsyncIterable<Uint8Array>): Promise<number> {
  let total = 0;
  for await (const piece of source) total += piece.length;
  return total;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('watchBody', () => {
  test('a body above the minimum rate passes whole, however long it takes', async () => {
    const onStall = vi.fn();
    // 20 KiB/s for 5 s against a 10 KiB/s minimum.
    const run = drain(watchBody(paced(2048, 100, 50), limits, onStall));
    await vi.advanceTimersByTimeAsync(6000);
    await expect(run).resolves.toBe(50 * 2048);
    expect(onStall).not.toHaveBeenCalled();
  });

  test('a body that trickles below the minimum rate is cut after the window', async () => {
    const onStall = vi.fn();
    // 5 KiB/s: never idle, but half the minimum.
    const run = drain(watchBody(paced(512, 100), limits, onStall));
    const outcome = run.then(
      () => 'ended',
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(900);
    expect(onStall).not.toHaveBeenCalled(); // the window has not passed yet
    await vi.advanceTimersByTimeAsync(600);
    expect(await outcome).toBeInstanceOf(UploadTooSlowError);
    expect(onStall).toHaveBeenCalledOnce();
  });

  test('a body that stops sending is cut after the idle timeout', async () => {
    const onStall = vi.fn();
    async function* stops() {
      yield new Uint8Array(64 * 1024);
      await new Promise(() => {}); // never sends again
    }
    const outcome = drain(watchBody(stops(), limits, onStall)).then(
      () => 'ended',
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(400);
    expect(onStall).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(200);
    expect(await outcome).toBeInstanceOf(UploadTooSlowError);
    expect(onStall).toHaveBeenCalledOnce();
  });

  test('time the server spends on a piece is not held against the client', async () => {
    const onStall = vi.fn();
    // A fast client (pieces every 10 ms) behind a slow store (2 s per piece): far past the idle timeout.
    const run = (async () => {
      let total = 0;
      for await (const piece of watchBody(paced(4096, 10, 3), limits, onStall)) {
        total += piece.length;
        await fakeClockDelay(2000); // the store taking 2 s
      }
      return total;
    })();
    await vi.advanceTimersByTimeAsync(7000);
    await expect(run).resolves.toBe(3 * 4096);
    expect(onStall).not.toHaveBeenCalled();
  });
});

describe('UploadSlots', () => {
  test('a member gets at most the limit; a slot given back (once) can be taken again', () => {
    const slots = new UploadSlots(2);
    const a = slots.take('u1');
    slots.take('u1');
    expect(() => slots.take('u1')).toThrow(/2 uploads in progress/);
    expect(() => slots.take('u2')).not.toThrow();
    a();
    a(); // a second release does not free a slot that is not held
    expect(slots.held('u1')).toBe(1);
    slots.take('u1');
    expect(() => slots.take('u1')).toThrow();
  });
});

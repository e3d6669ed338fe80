import { describe, expect, test } from 'vitest';
import { ChunkBufferPool } from './buffer-pool.ts';

describe('ChunkBufferPool.tryAcquire (downloads borrow without waiting)', () => {
  test('lends up to the cap, then answers null at once; a buffer given back is lent again', async () => {
    const pool = new ChunkBufferPool(64 * 1024, 2, 1);
    const a = pool.tryAcquire();
    const b = pool.tryAcquire();
    expect(a?.byteLength).toBe(64 * 1024);
    expect(b).not.toBeNull();
    expect(pool.tryAcquire()).toBeNull();
    expect(pool.inUse).toBe(2);
    pool.release(a!);
    expect(pool.tryAcquire()).toBe(a);
    // A waiting acquire is served before anything is kept free.
    const waiting = pool.acquire();
    pool.release(b!);
    expect(await waiting).toBe(b);
  });
});

describe('ChunkBufferPool.close (the files feature closes its pools on stop)', () => {
  test('fails whoever waits (their wait timer cleared), refuses later acquires and keeps no buffer', async () => {
    const pool = new ChunkBufferPool(64 * 1024, 1, 1);
    const held = pool.tryAcquire()!;
    const waiting = pool.acquire(60_000);
    pool.close();
    await expect(waiting).rejects.toThrow(/closed/);
    await expect(pool.acquire()).rejects.toThrow(/closed/);
    pool.release(held); // returned after close: dropped, not kept
    expect(pool.inUse).toBe(0);
    expect(pool.isClosed).toBe(true);
  });
});

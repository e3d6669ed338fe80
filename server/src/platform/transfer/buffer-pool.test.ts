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

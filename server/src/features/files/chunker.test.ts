import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { BlobStore } from '../../platform/blob-store/index.ts';
import {
  HASH_SLICE_BYTES,
  STAGING_BYTES,
  type StoredChunk,
  storeInChunks,
  TooLargeError,
} from './chunker.ts';
import { BufferWaitTimeout, ChunkBufferPool } from './hashing/buffer-pool.ts';
import { HashPool } from './hashing/hash-pool.ts';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** An in-memory store that can be told to fail its n-th put. */
function memoryStore(failPut?: number) {
  const blobs = new Map<string, Buffer>();
  let puts = 0;
  const store: BlobStore = {
    kind: 'memory',
    async put(body) {
      const n = ++puts; // puts overlap: number this one before its first await
      const parts: Buffer[] = [];
      for await (const p of body) parts.push(Buffer.from(p));
      if (n === failPut) throw new Error('store is full');
      const id = `b${n}`;
      blobs.set(id, Buffer.concat(parts));
      return id;
    },
    async get() {
      throw new Error('not used');
    },
    async delete(id) {
      blobs.delete(id);
    },
  };
  return { store, blobs };
}

async function* pieces(data: Buffer, size: number) {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

const hashes = new HashPool();

describe('storeInChunks', () => {
  test('cuts any stream into fixed-size chunks, hashing each and the whole', async () => {
    const data = Buffer.from('abcdefghijklmnopqrstuvwxyz0123456789');
    const { store, blobs } = memoryStore();
    const chunks: StoredChunk[] = [];
    const result = await storeInChunks(pieces(data, 7), {
      store,
      buffers: new ChunkBufferPool(10, 4),
      hashes,
      maxBytes: 1000,
      onChunk: async (c) => {
        chunks.push(c);
      },
    });
    expect(result).toEqual({ size: 36, sha256: sha(data), chunks: 4 });
    chunks.sort((a, b) => a.idx - b.idx);
    expect(chunks.map((c) => c.size)).toEqual([10, 10, 10, 6]);
    expect(chunks.map((c) => blobs.get(c.blobId)!.toString())).toEqual([
      'abcdefghij',
      'klmnopqrst',
      'uvwxyz0123',
      '456789',
    ]);
    expect(chunks[2]!.sha256).toBe(sha(Buffer.from('uvwxyz0123')));
  });

  test('stops as soon as more than maxBytes arrive', async () => {
    const { store } = memoryStore();
    const run = storeInChunks(pieces(Buffer.alloc(100), 3), {
      store,
      buffers: new ChunkBufferPool(10, 4),
      hashes,
      maxBytes: 25,
      onChunk: async () => {},
    });
    await expect(run).rejects.toBeInstanceOf(TooLargeError);
  });

  test('chunks larger than a hash slice are hashed slice by slice to the right digests', async () => {
    const data = randomBytes(3 * HASH_SLICE_BYTES + 12_345);
    const chunkSize = HASH_SLICE_BYTES + 777; // slices end mid-chunk and chunks end mid-slice
    const { store, blobs } = memoryStore();
    const chunks: StoredChunk[] = [];
    const result = await storeInChunks(pieces(data, 65_537), {
      store,
      buffers: new ChunkBufferPool(chunkSize, 4),
      hashes,
      maxBytes: data.length,
      onChunk: async (c) => {
        chunks.push(c);
      },
    });
    expect(result).toEqual({ size: data.length, sha256: sha(data), chunks: 4 });
    chunks.sort((a, b) => a.idx - b.idx);
    for (const c of chunks) {
      const expected = data.subarray(c.idx * chunkSize, c.idx * chunkSize + c.size);
      expect(c.sha256).toBe(sha(expected));
      expect(blobs.get(c.blobId)!.equals(expected)).toBe(true);
    }
  });

  test('a chunk that cannot be recorded is deleted from the store again', async () => {
    const { store, blobs } = memoryStore();
    let calls = 0;
    const recorded: string[] = [];
    const run = storeInChunks(pieces(Buffer.alloc(45, 1), 9), {
      store,
      buffers: new ChunkBufferPool(10, 4),
      hashes,
      maxBytes: 1000,
      onChunk: async (c) => {
        calls += 1;
        if (calls === 2) throw new Error('database is gone');
        recorded.push(c.blobId);
      },
    });
    await expect(run).rejects.toThrow('database is gone');
    // What remains is exactly what was recorded (the rows' cleanup deletes those); the failed one is gone.
    expect(recorded.length).toBeGreaterThanOrEqual(1);
    expect([...blobs.keys()].sort()).toEqual([...recorded].sort());
  });

  test('a store failure fails the upload and every buffer goes back to the pool', async () => {
    const { store } = memoryStore(2);
    const buffers = new ChunkBufferPool(10, 2);
    const run = storeInChunks(pieces(Buffer.alloc(45, 1), 9), {
      store,
      buffers,
      hashes,
      maxBytes: 1000,
      onChunk: async () => {},
    });
    await expect(run).rejects.toThrow('store is full');
    // Both buffers are free again: two acquisitions succeed at once.
    await expect(Promise.all([buffers.acquire(), buffers.acquire()])).resolves.toHaveLength(2);
  });

  test('a hashing failure deletes the stored blob, but only after its write has finished', async () => {
    const { store, blobs } = memoryStore();
    // The write stays open until the test lets it finish: still writing when the hash fails.
    let finishWrite = () => {};
    const writeMayFinish = new Promise<void>((resolve) => {
      finishWrite = resolve;
    });
    const written: string[] = [];
    const deleted: string[] = [];
    const slowStore: BlobStore = {
      ...store,
      put: async (body, size) => {
        await writeMayFinish;
        const id = await store.put(body, size);
        written.push(id);
        return id;
      },
      delete: async (id) => {
        // Deleting a blob whose write has not finished would leave it behind once the write lands.
        deleted.push(written.includes(id) ? id : `${id} (before its write ended)`);
        return store.delete(id);
      },
    };
    const working = { update: async () => {}, final: async () => 'x', drop: () => {} };
    let hashFailed = () => {};
    const hashHasFailed = new Promise<void>((resolve) => {
      hashFailed = resolve;
    });
    const failingHashes = {
      openFileHash: () => working,
      openChunkHash: () => ({
        ...working,
        update: async () => {
          hashFailed();
          throw new Error('hash thread died');
        },
      }),
    } as unknown as HashPool;
    const run = storeInChunks(pieces(Buffer.alloc(10, 1), 10), {
      store: slowStore,
      buffers: new ChunkBufferPool(10, 1),
      hashes: failingHashes,
      maxBytes: 1000,
      onChunk: async () => {},
    });
    const outcome = run.catch((e: unknown) => e);
    await hashHasFailed;
    expect(written).toEqual([]); // the hash failed while the write was still open
    finishWrite();
    expect(await outcome).toMatchObject({ message: 'hash thread died' });
    // The blob the write stored is deleted, after its write ended.
    expect(written).toHaveLength(1);
    expect(deleted).toEqual(written);
    expect(blobs.size).toBe(0);
  });
});

describe('staging and the shared pool (issue 15: small uploads never wait behind slow ones)', () => {
  const CHUNK = 4 * STAGING_BYTES;

  test('a file that fits the staging buffer is stored while every pooled buffer is taken', async () => {
    const pool = new ChunkBufferPool(CHUNK, 1);
    const held = await pool.acquire();
    const data = randomBytes(STAGING_BYTES);
    const { store, blobs } = memoryStore();
    const chunks: StoredChunk[] = [];
    const result = await storeInChunks(pieces(data, 64 * 1024), {
      store,
      buffers: pool,
      hashes,
      maxBytes: CHUNK * 4,
      bufferWaitMs: 10_000,
      onChunk: async (c) => {
        chunks.push(c);
      },
    });
    expect(result).toEqual({ size: data.length, sha256: sha(data), chunks: 1 });
    expect(blobs.get(chunks[0]!.blobId)!.equals(data)).toBe(true);
    pool.release(held);
  });

  test('a chunk that outgrows the staging buffer moves to a pooled one with its bytes and hashes intact', async () => {
    const data = randomBytes(CHUNK + STAGING_BYTES / 2 + 7);
    const { store, blobs } = memoryStore();
    const chunks: StoredChunk[] = [];
    const result = await storeInChunks(pieces(data, 100_003), {
      store,
      buffers: new ChunkBufferPool(CHUNK, 4),
      hashes,
      maxBytes: CHUNK * 4,
      onChunk: async (c) => {
        chunks.push(c);
      },
    });
    expect(result).toEqual({ size: data.length, sha256: sha(data), chunks: 2 });
    chunks.sort((a, b) => a.idx - b.idx);
    expect(chunks.map((c) => c.sha256)).toEqual([sha(data.subarray(0, CHUNK)), sha(data.subarray(CHUNK))]);
    expect(Buffer.concat(chunks.map((c) => blobs.get(c.blobId)!)).equals(data)).toBe(true);
  });

  test('no pooled buffer within bufferWaitMs: BufferWaitTimeout, not a hang, and the pool is left as it was', async () => {
    const pool = new ChunkBufferPool(CHUNK, 1);
    const held = await pool.acquire();
    const { store, blobs } = memoryStore();
    const run = storeInChunks(pieces(randomBytes(2 * STAGING_BYTES), 64 * 1024), {
      store,
      buffers: pool,
      hashes,
      maxBytes: CHUNK * 4,
      bufferWaitMs: 50,
      onChunk: async () => {},
    });
    await expect(run).rejects.toBeInstanceOf(BufferWaitTimeout);
    expect(blobs.size).toBe(0);
    expect(pool.inUse).toBe(1);
    // A later waiter still gets the buffer when it is given back (the timed-out one left the queue).
    const next = pool.acquire(1000);
    pool.release(held);
    expect(await next).toBe(held);
  });
});

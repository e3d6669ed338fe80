import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { type BlobStore, LocalBlobStore } from '../blob-store/index.ts';
import { BufferWaitTimeout, ChunkBufferPool } from './buffer-pool.ts';
import {
  type ChunkerOptions,
  STAGING_BYTES,
  type StoredChunk,
  storeInChunks,
  TooLargeError,
} from './chunker.ts';
import { type FileHash, HashPool } from './hash-pool.ts';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** CRC32C (Castagnoli, reflected 0x82F63B78) bit by bit: an independent reference for the hash threads. */
function referenceCrc32c(bytes: Uint8Array): string {
  let crc = 0xffffffff;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return ((crc ^ 0xffffffff) >>> 0).toString(16).padStart(8, '0');
}

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

/** Runs the chunker with a fresh file hash; resolves with its result and the file's SHA-256. */
async function chunked(
  source: AsyncIterable<Uint8Array>,
  opts: Omit<ChunkerOptions, 'fileHash'> & { fileHash?: FileHash },
) {
  const fileHash = opts.fileHash ?? hashes.openFileHash();
  try {
    const result = await storeInChunks(source, { ...opts, fileHash });
    return { ...result, sha256: await fileHash.final() };
  } catch (e) {
    fileHash.drop();
    throw e;
  }
}

describe('storeInChunks', () => {
  test('cuts any stream into fixed-size chunks, with a CRC32C for each and a SHA-256 of the whole', async () => {
    const data = Buffer.from('abcdefghijklmnopqrstuvwxyz0123456789');
    const { store, blobs } = memoryStore();
    const chunks: StoredChunk[] = [];
    const result = await chunked(pieces(data, 7), {
      store,
      buffers: new ChunkBufferPool(10, 4),
      maxBytes: 1000,
      onChunk: async (c) => {
        chunks.push(c);
      },
    });
    expect(result).toEqual({ size: 36, sha256: sha(data), chunks: 4, discarded: 0 });
    chunks.sort((a, b) => a.idx - b.idx);
    expect(chunks.map((c) => c.size)).toEqual([10, 10, 10, 6]);
    expect(chunks.map((c) => blobs.get(c.blobId)!.toString())).toEqual([
      'abcdefghij',
      'klmnopqrst',
      'uvwxyz0123',
      '456789',
    ]);
    expect(chunks[2]!.crc32c).toBe(referenceCrc32c(Buffer.from('uvwxyz0123')));
  });

  test('stops as soon as more than maxBytes arrive', async () => {
    const { store } = memoryStore();
    const run = chunked(pieces(Buffer.alloc(100), 3), {
      store,
      buffers: new ChunkBufferPool(10, 4),
      maxBytes: 25,
      onChunk: async () => {},
    });
    await expect(run).rejects.toBeInstanceOf(TooLargeError);
  });

  test('each chunk gets the CRC32C of its bytes, and the file the SHA-256 of all of them, in one pass', async () => {
    const data = randomBytes(3 * 1024 * 1024 + 12_345);
    const chunkSize = 1024 * 1024 + 777; // pieces end mid-chunk and chunks end mid-piece
    const { store, blobs } = memoryStore();
    const chunks: StoredChunk[] = [];
    const result = await chunked(pieces(data, 65_537), {
      store,
      buffers: new ChunkBufferPool(chunkSize, 4),
      maxBytes: data.length,
      onChunk: async (c) => {
        chunks.push(c);
      },
    });
    expect(result).toEqual({ size: data.length, sha256: sha(data), chunks: 4, discarded: 0 });
    chunks.sort((a, b) => a.idx - b.idx);
    for (const c of chunks) {
      const expected = data.subarray(c.idx * chunkSize, c.idx * chunkSize + c.size);
      expect(c.crc32c).toBe(referenceCrc32c(expected));
      expect(blobs.get(c.blobId)!.equals(expected)).toBe(true);
    }
    expect(referenceCrc32c(Buffer.from('123456789'))).toBe('e3069283'); // the reference is CRC32C's check value
  });

  test('a resumed source numbers its chunks on, stores a partial tail only if it ends the file, and the hash goes on across sources', async () => {
    const data = randomBytes(45);
    const { store, blobs } = memoryStore();
    const chunks: StoredChunk[] = [];
    const fileHash = hashes.openFileHash();
    const common = {
      store,
      buffers: new ChunkBufferPool(10, 4),
      fileHash,
      maxBytes: 1000,
      onChunk: async (c: StoredChunk) => {
        chunks.push(c);
      },
    };
    // The first request sends 27 bytes of 45: chunks 0 and 1 are stored, the 7 bytes after them are not.
    const first = await storeInChunks(pieces(data.subarray(0, 27), 4), { ...common, completesAt: 45 });
    expect(first).toEqual({ size: 20, chunks: 2, discarded: 7 });
    // The next one resumes at 20 and ends the file: chunks 2, 3 and the 5-byte tail 4.
    const second = await storeInChunks(pieces(data.subarray(20), 4), {
      ...common,
      firstIdx: 2,
      completesAt: 25,
    });
    expect(second).toEqual({ size: 25, chunks: 3, discarded: 0 });
    expect(chunks.map((c) => c.idx).sort()).toEqual([0, 1, 2, 3, 4]);
    chunks.sort((a, b) => a.idx - b.idx);
    expect(Buffer.concat(chunks.map((c) => blobs.get(c.blobId)!)).equals(data)).toBe(true);
    expect(await fileHash.final()).toBe(sha(data));
  });

  test('a chunk counts as unrecorded from the start of its write until its row is recorded (or it is deleted)', async () => {
    const { store } = memoryStore(3);
    const unrecorded = { bytes: 0 };
    const seen: { unrecorded: number; size: number }[] = [];
    await expect(
      chunked(pieces(Buffer.alloc(35, 1), 5), {
        store,
        buffers: new ChunkBufferPool(10, 4),
        maxBytes: 1000,
        unrecorded,
        onChunk: async (c) => {
          // Written, not yet recorded: the disk shows it and the upload still owes it.
          seen.push({ unrecorded: unrecorded.bytes, size: c.size });
        },
      }),
    ).rejects.toThrow('store is full');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s.unrecorded >= s.size)).toBe(true);
    // Recorded, and the failed third put's bytes: nothing is left counted.
    expect(unrecorded.bytes).toBe(0);
  });

  test('a chunk that cannot be recorded is deleted from the store again', async () => {
    const { store, blobs } = memoryStore();
    let calls = 0;
    const recorded: string[] = [];
    const run = chunked(pieces(Buffer.alloc(45, 1), 9), {
      store,
      buffers: new ChunkBufferPool(10, 4),
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
    const run = chunked(pieces(Buffer.alloc(45, 1), 9), {
      store,
      buffers,
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
    let hashFailed = () => {};
    const hashHasFailed = new Promise<void>((resolve) => {
      hashFailed = resolve;
    });
    const failingHash: FileHash = {
      chunk: async () => {
        hashFailed();
        throw new Error('hash thread died');
      },
      final: async () => 'x',
      drop: () => {},
    };
    const run = storeInChunks(pieces(Buffer.alloc(10, 1), 10), {
      store: slowStore,
      buffers: new ChunkBufferPool(10, 1),
      fileHash: failingHash,
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
    const result = await chunked(pieces(data, 64 * 1024), {
      store,
      buffers: pool,
      maxBytes: CHUNK * 4,
      bufferWaitMs: 10_000,
      onChunk: async (c) => {
        chunks.push(c);
      },
    });
    expect(result).toEqual({ size: data.length, sha256: sha(data), chunks: 1, discarded: 0 });
    expect(blobs.get(chunks[0]!.blobId)!.equals(data)).toBe(true);
    pool.release(held);
  });

  test('a chunk that outgrows the staging buffer moves to a pooled one with its bytes and checksums intact', async () => {
    const data = randomBytes(CHUNK + STAGING_BYTES / 2 + 7);
    const { store, blobs } = memoryStore();
    const chunks: StoredChunk[] = [];
    const result = await chunked(pieces(data, 100_003), {
      store,
      buffers: new ChunkBufferPool(CHUNK, 4),
      maxBytes: CHUNK * 4,
      onChunk: async (c) => {
        chunks.push(c);
      },
    });
    expect(result).toEqual({ size: data.length, sha256: sha(data), chunks: 2, discarded: 0 });
    chunks.sort((a, b) => a.idx - b.idx);
    expect(chunks.map((c) => c.crc32c)).toEqual([
      referenceCrc32c(data.subarray(0, CHUNK)),
      referenceCrc32c(data.subarray(CHUNK)),
    ]);
    expect(Buffer.concat(chunks.map((c) => blobs.get(c.blobId)!)).equals(data)).toBe(true);
  });

  test('no pooled buffer within bufferWaitMs: BufferWaitTimeout, not a hang, and the pool is left as it was', async () => {
    const pool = new ChunkBufferPool(CHUNK, 1);
    const held = await pool.acquire();
    const { store, blobs } = memoryStore();
    const run = chunked(pieces(randomBytes(2 * STAGING_BYTES), 64 * 1024), {
      store,
      buffers: pool,
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

describe('chunks written straight to the local disk (issue 18)', () => {
  test.runIf(process.platform === 'linux')(
    'every chunk from a pooled buffer is a direct write, the first megabyte’s own buffer a buffered one, and the bytes read back intact',
    async () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-chunks-'));
      try {
        const store = new LocalBlobStore(root);
        const chunkSize = 4 * STAGING_BYTES;
        // A staged first chunk that grows into a pooled one, a full chunk, and a tail of odd length.
        const data = randomBytes(2 * chunkSize + 12_345);
        const chunks: StoredChunk[] = [];
        const result = await chunked(pieces(data, 65_536), {
          store,
          buffers: new ChunkBufferPool(chunkSize, 3),
          maxBytes: data.length,
          onChunk: async (c) => {
            chunks.push(c);
          },
        });
        expect(result).toMatchObject({ size: data.length, sha256: sha(data), chunks: 3 });
        expect(store.writes).toEqual({ direct: 3, buffered: 0 });
        chunks.sort((a, b) => a.idx - b.idx);
        const back = await Promise.all(
          chunks.map(async (c) => Buffer.concat(await (await store.get(c.blobId)).toArray())),
        );
        expect(Buffer.concat(back).equals(data)).toBe(true);

        // A file smaller than the staging buffer never leaves it: buffered, and still intact.
        const small = randomBytes(1000);
        const one: StoredChunk[] = [];
        await chunked(pieces(small, 300), {
          store,
          buffers: new ChunkBufferPool(chunkSize, 3),
          maxBytes: 1000,
          onChunk: async (c) => {
            one.push(c);
          },
        });
        expect(store.writes).toEqual({ direct: 3, buffered: 1 });
        expect(Buffer.concat(await (await store.get(one[0]!.blobId)).toArray()).equals(small)).toBe(true);
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    },
  );
});

import type { BlobId, BlobStore } from '../../platform/blob-store/index.ts';
import type { ChunkBufferPool } from './hashing/buffer-pool.ts';
import type { HashPool, HashStream } from './hashing/hash-pool.ts';

export type StoredChunk = { idx: number; blobId: BlobId; size: number; sha256: string };
export type ChunkedResult = { size: number; sha256: string; chunks: number };

export class TooLargeError extends Error {}

/**
 * Chunks of one upload dispatched but not yet stored. A new chunk starts filling only while fewer are
 * in flight, so with two the next chunk fills while the previous one is still being written (and its
 * last slice hashed), and an upload holds at most two buffers.
 */
const IN_FLIGHT_PER_UPLOAD = 2; // at least; remote stores ask for more (BlobStore.parallelPuts)
/**
 * Bytes handed to the hash threads at a time as a chunk fills: small enough that hashing keeps pace
 * with receiving (and reads bytes still in cache), large enough that messages cost nothing.
 */
export const HASH_SLICE_BYTES = 1024 * 1024;

export type ChunkerOptions = {
  store: BlobStore;
  buffers: ChunkBufferPool;
  hashes: HashPool;
  maxBytes: number;
  /** Records a stored chunk; if it fails, the blob is deleted again. */
  onChunk: (chunk: StoredChunk) => Promise<void>;
  /** How long to wait for a pooled buffer before failing with BufferWaitTimeout (none: wait). */
  bufferWaitMs?: number;
};

/**
 * The first bytes of an upload go into a small buffer of its own, not a pooled one: a file that fits
 * (most files) never waits for the pool, and a body that trickles in holds no shared 8 MiB buffer until
 * it has sent this much. So uploads that hold every pooled buffer cannot starve small uploads.
 */
export const STAGING_BYTES = 1024 * 1024;

/** The chunk being filled: its buffer, how much of it holds data, how much went to the hashers. */
type Filling = {
  buffer: SharedArrayBuffer;
  view: Uint8Array;
  filled: number;
  hashed: number;
  hash: HashStream;
  /** Acknowledgements of the slices sent; the buffer is reused only after all of them. */
  slices: Promise<void>[];
  /** From the pool (given back after the chunk is stored), or the upload's own staging buffer. */
  pooled: boolean;
};

/**
 * Cuts a byte stream into chunks of the pool's buffer size as it arrives. Every slice is hashed (the
 * chunk's SHA-256 and the running whole-file SHA-256, on worker threads) as soon as it is copied in;
 * each full chunk is put into the store while the next ones fill. Memory stays at a few chunk buffers
 * whatever the file size. Throws TooLargeError as soon as more than `maxBytes` arrive; on any failure
 * the chunks stored so far are left to the caller's cleanup (their rows exist) and nothing else remains.
 */
export async function storeInChunks(
  source: AsyncIterable<Uint8Array>,
  opts: ChunkerOptions,
): Promise<ChunkedResult> {
  const { store, buffers, hashes, maxBytes } = opts;
  const parallel = Math.max(IN_FLIGHT_PER_UPLOAD, store.parallelPuts ?? 0);
  const chunkSize = buffers.bufferBytes;
  const fileHash = hashes.openFileHash();
  const inFlight = new Set<Promise<void>>();
  let failure: unknown = null;
  let total = 0;
  let idx = 0;
  let current: Filling | null = null;

  /** Sends the bytes copied in since the last slice to both hashers (file hash first: order matters). */
  const sendSlice = (c: Filling) => {
    const length = c.filled - c.hashed;
    if (length === 0) return;
    for (const stream of [fileHash, c.hash]) {
      const ack = stream.update(c.buffer, c.hashed, length);
      ack.catch(() => {}); // awaited with the chunk; this only keeps an early failure from going unhandled
      c.slices.push(ack);
    }
    c.hashed = c.filled;
  };

  const dispatch = (c: Filling, chunkIdx: number) => {
    sendSlice(c);
    const { buffer, filled: length } = c;
    const job = (async () => {
      let blobId: BlobId | null = null;
      const put = store.put([new Uint8Array(buffer, 0, length)], length).then((id) => {
        blobId = id;
        return id;
      });
      try {
        const [id, sha256] = await Promise.all([put, c.hash.final(), ...c.slices]);
        await opts.onChunk({ idx: chunkIdx, blobId: id, size: length, sha256 });
      } catch (e) {
        // Whatever failed, a blob that was stored but not recorded is deleted again (after its write ends).
        await put.catch(() => {});
        if (blobId) await store.delete(blobId).catch(() => {});
        c.hash.drop();
        failure ??= e;
      } finally {
        // The hashers may still be reading the buffer if the write failed first.
        await Promise.allSettled(c.slices);
        if (c.pooled) buffers.release(buffer);
      }
    })();
    inFlight.add(job);
    void job.finally(() => inFlight.delete(job));
  };

  try {
    for await (const data of source) {
      let offset = 0;
      while (offset < data.length) {
        if (failure) throw failure;
        if (!current) {
          while (inFlight.size >= parallel) await Promise.race(inFlight);
          // The first chunk starts in the upload's own staging buffer (see STAGING_BYTES).
          const staged = idx === 0 && STAGING_BYTES < chunkSize;
          const buffer = staged
            ? new SharedArrayBuffer(STAGING_BYTES)
            : await buffers.acquire(opts.bufferWaitMs);
          current = {
            buffer,
            view: new Uint8Array(buffer),
            filled: 0,
            hashed: 0,
            hash: hashes.openChunkHash(),
            slices: [],
            pooled: !staged,
          };
        } else if (!current.pooled && current.filled === current.buffer.byteLength) {
          // The staging buffer is full and more is coming: move to a pooled one. Slices already sent
          // keep reading the staging buffer, which is never reused.
          const staging: Filling = current;
          const buffer = await buffers.acquire(opts.bufferWaitMs);
          const view = new Uint8Array(buffer);
          view.set(staging.view.subarray(0, staging.filled));
          current = { ...staging, buffer, view, pooled: true };
        }
        const c: Filling = current;
        const n = Math.min(data.length - offset, c.buffer.byteLength - c.filled);
        total += n;
        if (total > maxBytes) throw new TooLargeError(`more than ${maxBytes} bytes`);
        c.view.set(n === data.length ? data : data.subarray(offset, offset + n), c.filled);
        c.filled += n;
        offset += n;
        if (c.filled === chunkSize) {
          dispatch(c, idx++);
          current = null;
        } else if (c.filled - c.hashed >= HASH_SLICE_BYTES) {
          sendSlice(c);
        }
      }
    }
    if (current && current.filled > 0) {
      dispatch(current, idx++);
      current = null;
    }
    await Promise.all(inFlight);
    if (failure) throw failure;
    return { size: total, sha256: await fileHash.final(), chunks: idx };
  } catch (e) {
    fileHash.drop();
    await Promise.allSettled(inFlight);
    throw e;
  } finally {
    if (current) {
      current.hash.drop();
      const { buffer, slices, pooled } = current;
      await Promise.allSettled(slices);
      if (pooled) buffers.release(buffer);
    }
  }
}

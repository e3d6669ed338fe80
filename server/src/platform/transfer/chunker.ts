import type { BlobId, BlobStore } from '../blob-store/index.ts';
import type { ChunkBufferPool } from './buffer-pool.ts';
import type { FileHash } from './hash-pool.ts';

/** A chunk in the store: where, how big, and its CRC32C (8 hex digits), checked on every read. */
export type StoredChunk = { idx: number; blobId: BlobId; size: number; crc32c: string };
/** Bytes stored and chunks dispatched; `discarded`: a partial chunk left unstored (see `completesAt`). */
export type ChunkedResult = { size: number; chunks: number; discarded: number };

export class TooLargeError extends Error {}

/**
 * Bytes this process is writing to the store, or has written, whose chunk rows are not recorded yet:
 * between a chunk's `put` and its `onChunk`. A disk check that reads the free space and what uploads
 * under way still owe adds these back, or a chunk just written by a concurrent request would count
 * twice (once as used disk, once as owed): a false "disk full".
 */
export type UnrecordedBytes = { bytes: number };

/**
 * Chunks of one upload dispatched but not yet stored. A new chunk starts filling only while fewer are
 * in flight, so with two the next chunk fills while the previous one is being written and hashed, and
 * an upload holds at most two buffers.
 */
const IN_FLIGHT_PER_UPLOAD = 2; // at least; remote stores ask for more (BlobStore.parallelPuts)

export type ChunkerOptions = {
  store: BlobStore;
  buffers: ChunkBufferPool;
  /** The file's SHA-256, fed each whole chunk in order (a resumed upload passes the one it continues). */
  fileHash: FileHash;
  maxBytes: number;
  /** The index of the first chunk (a resumed upload continues its numbering); 0 by default. */
  firstIdx?: number;
  /**
   * Bytes from here to the file's end, for a source that may end early (a resumable request): a
   * partial chunk at its end is stored only if it ends the file, and otherwise left for the client
   * to send again. Without it, whatever the source holds is stored.
   */
  completesAt?: number;
  /** Records a stored chunk; if it fails, the blob is deleted again. */
  onChunk: (chunk: StoredChunk) => Promise<void>;
  /** How long to wait for a pooled buffer before failing with BufferWaitTimeout (none: wait). */
  bufferWaitMs?: number;
  /** Counts each chunk from the start of its write until it is recorded (or deleted again). */
  unrecorded?: UnrecordedBytes;
};

/**
 * The first bytes of an upload go into a small buffer of its own, not a pooled one: a file that fits
 * (most files) never waits for the pool, and a body that trickles in holds no shared 8 MiB buffer until
 * it has sent this much. So uploads that hold every pooled buffer cannot starve small uploads.
 */
export const STAGING_BYTES = 1024 * 1024;

/** The chunk being filled: its buffer and how much of it holds data. */
type Filling = {
  buffer: SharedArrayBuffer;
  view: Uint8Array;
  filled: number;
  /** From the pool (given back after the chunk is stored), or the upload's own staging buffer. */
  pooled: boolean;
};

/**
 * Cuts a byte stream into chunks of the pool's buffer size as it arrives, copying each piece once,
 * into the chunk's buffer. Each full chunk is then, at the same time, written to the store in one
 * call and hashed on a hash thread (the file's SHA-256 and the chunk's CRC32C in one pass, reading the
 * buffer in place), while the next chunk fills. Memory stays at a few chunk buffers whatever the file
 * size. Throws TooLargeError as soon as more than `maxBytes` arrive; on any failure the chunks stored
 * so far are left to the caller's cleanup (their rows exist) and nothing else remains. The file hash
 * has then been fed exactly the chunks dispatched (a partial chunk never): a resumable upload whose
 * connection dropped can go on with it.
 */
export async function storeInChunks(
  source: AsyncIterable<Uint8Array>,
  opts: ChunkerOptions,
): Promise<ChunkedResult> {
  const { store, buffers, fileHash, maxBytes } = opts;
  const parallel = Math.max(IN_FLIGHT_PER_UPLOAD, store.parallelPuts ?? 0);
  const chunkSize = buffers.bufferBytes;
  const firstIdx = opts.firstIdx ?? 0;
  const inFlight = new Set<Promise<void>>();
  let failure: unknown = null;
  let total = 0;
  let idx = firstIdx;
  let current: Filling | null = null;

  const dispatch = (c: Filling, chunkIdx: number) => {
    const { buffer, filled: length } = c;
    // Hashed in dispatch order, so the file's SHA-256 sees the chunks in order.
    const hashed = fileHash.chunk(buffer, length);
    const job = (async () => {
      let blobId: BlobId | null = null;
      let unrecorded = length;
      if (opts.unrecorded) opts.unrecorded.bytes += length;
      const settle = () => {
        if (opts.unrecorded) opts.unrecorded.bytes -= unrecorded;
        unrecorded = 0;
      };
      const put = store.put([new Uint8Array(buffer, 0, length)], length).then((id) => {
        blobId = id;
        return id;
      });
      try {
        const [id, { crc32c }] = await Promise.all([put, hashed]);
        await opts.onChunk({ idx: chunkIdx, blobId: id, size: length, crc32c });
        settle();
      } catch (e) {
        // Whatever failed, a blob that was stored but not recorded is deleted again (after its write ends).
        await put.catch(() => {});
        if (blobId) await store.delete(blobId).catch(() => {});
        failure ??= e;
      } finally {
        settle(); // recorded, or deleted again
        // The hash thread may still be reading the buffer if the write failed first.
        await hashed.catch(() => {});
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
          const staged = idx === firstIdx && STAGING_BYTES < chunkSize;
          const buffer = staged
            ? new SharedArrayBuffer(STAGING_BYTES)
            : await buffers.acquire(opts.bufferWaitMs);
          current = { buffer, view: new Uint8Array(buffer), filled: 0, pooled: !staged };
        } else if (!current.pooled && current.filled === current.buffer.byteLength) {
          // The staging buffer is full and more is coming: move its bytes to a pooled one.
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
        }
      }
    }
    let discarded = 0;
    if (current && current.filled > 0) {
      if (opts.completesAt === undefined || total === opts.completesAt) {
        dispatch(current, idx++);
        current = null;
      } else discarded = current.filled; // released below, never hashed
    }
    await Promise.all(inFlight);
    if (failure) throw failure;
    return { size: total - discarded, chunks: idx - firstIdx, discarded };
  } catch (e) {
    await Promise.allSettled(inFlight);
    throw e;
  } finally {
    // A partial chunk was never hashed or sent: its buffer goes straight back.
    if (current?.pooled) buffers.release(current.buffer);
  }
}

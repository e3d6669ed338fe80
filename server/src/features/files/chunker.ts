import type { BlobId, BlobStore } from '../../platform/blob-store/index.ts';
import type { ChunkBufferPool } from './hashing/buffer-pool.ts';
import type { HashPool } from './hashing/hash-pool.ts';

export type StoredChunk = { idx: number; blobId: BlobId; size: number; sha256: string };
export type ChunkedResult = { size: number; sha256: string; chunks: number };

export class TooLargeError extends Error {}

/** Chunks of one upload being stored and hashed while the next one fills. */
const IN_FLIGHT_PER_UPLOAD = 1;

export type ChunkerOptions = {
  store: BlobStore;
  buffers: ChunkBufferPool;
  hashes: HashPool;
  maxBytes: number;
  /** Records a stored chunk; if it fails, the blob is deleted again. */
  onChunk: (chunk: StoredChunk) => Promise<void>;
};

/**
 * Cuts a byte stream into chunks of the pool's buffer size as it arrives. Each full chunk is put into
 * the store and hashed (the chunk and the running whole-file SHA-256, on worker threads) while the
 * next one fills, with one chunk in flight, so memory stays at a few chunk buffers whatever
 * the file size. Throws TooLargeError as soon as more than `maxBytes` arrive; on any failure the
 * chunks stored so far are left to the caller's cleanup (their rows exist) and nothing else remains.
 */
export async function storeInChunks(
  source: AsyncIterable<Uint8Array>,
  opts: ChunkerOptions,
): Promise<ChunkedResult> {
  const { store, buffers, hashes, maxBytes } = opts;
  const chunkSize = buffers.bufferBytes;
  const fileHash = hashes.openStream();
  const inFlight = new Set<Promise<void>>();
  let failure: unknown = null;
  let total = 0;
  let idx = 0;
  let current: SharedArrayBuffer | null = null;
  let view: Uint8Array | null = null;
  let filled = 0;

  const dispatch = (buffer: SharedArrayBuffer, length: number, chunkIdx: number) => {
    const bytes = new Uint8Array(buffer, 0, length);
    // Fed in order; the worker hashes while the store writes.
    const fileHashed = fileHash.update(buffer, length);
    const job = (async () => {
      let blobId: BlobId | null = null;
      const put = store.put([bytes], length).then((id) => {
        blobId = id;
        return id;
      });
      try {
        const [id, sha256] = await Promise.all([put, hashes.digest(buffer, length), fileHashed]);
        await opts.onChunk({ idx: chunkIdx, blobId: id, size: length, sha256 });
      } catch (e) {
        // Whatever failed, a blob that was stored but not recorded is deleted again (after its write ends).
        await put.catch(() => {});
        if (blobId) await store.delete(blobId).catch(() => {});
        failure ??= e;
      } finally {
        buffers.release(buffer);
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
          while (inFlight.size >= IN_FLIGHT_PER_UPLOAD) await Promise.race(inFlight);
          current = await buffers.acquire();
          view = new Uint8Array(current);
          filled = 0;
        }
        const n = Math.min(data.length - offset, chunkSize - filled);
        total += n;
        if (total > maxBytes) throw new TooLargeError(`more than ${maxBytes} bytes`);
        view!.set(n === data.length ? data : data.subarray(offset, offset + n), filled);
        filled += n;
        offset += n;
        if (filled === chunkSize) {
          dispatch(current, filled, idx++);
          current = null;
        }
      }
    }
    if (current && filled > 0) {
      dispatch(current, filled, idx++);
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
    if (current) buffers.release(current);
  }
}

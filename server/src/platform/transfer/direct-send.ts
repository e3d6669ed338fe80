import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type BlobReader,
  type BlobStore,
  type ChunkCheck,
  chunkChecker,
  withinRange,
} from '../blob-store/index.ts';
import { faultStatus, serverFault } from '../errors.ts';
import type { ChunkBufferPool } from './buffer-pool.ts';

/** What a download tells its watch (the files feature's stall detector): a write handed to the response, and its completion. */
export type DownloadWatch = { writeStarted(): void; writeDone(): void };

/** One chunk's share of a response: the inclusive byte range inside the chunk, and its record. */
export type ChunkPart = { blobId: string; start: number; end: number; check: ChunkCheck };

/** Bytes read (and written to the socket) at a time. */
const PIECE_BYTES = 1024 * 1024;
/**
 * Reads in flight. One at a time, each 1 MiB read of a chunk not in memory waited for the disk
 * (0.5–0.6 GB/s); two reached ≈ 1.25 GB/s, four ≈ 1.5–2.3 (bench/files, chunks written direct).
 */
const READ_AHEAD = 4;
/** Pieces in rotation: four being read, one held until the next is read, one being written. */
const PIECES = 6;
/**
 * A download past the pooled buffers (all lent to other downloads) gets this much memory of its own:
 * three quarter-MiB pieces, one read ahead, so however many downloads run, each one beyond the pool
 * holds 768 KiB, not 6 MiB (issue 26: 150 stalled downloads took 900 MiB).
 */
const SMALL_PIECE_BYTES = 256 * 1024;
const SMALL_PIECES = 3;
const SMALL_READ_AHEAD = 1;
/** The largest single write to the response: progress the stalled-reader watch can see (download-limits.ts). */
const WRITE_SLICE_BYTES = 256 * 1024;
/**
 * A download's pieces, as one buffer from a pool of page-aligned ones (so chunks written with O_DIRECT
 * are read the same way, see LocalBlobStore.openReader). Downloads beyond the pool's size use plain
 * buffers and read through the page cache.
 */
export const DOWNLOAD_BUFFER_BYTES = PIECES * PIECE_BYTES;

/**
 * Sends the parts of a download straight to the socket from a few reused buffers, for chunks in a
 * store that reads into the caller's buffer (local disk). A stream would allocate a new buffer per
 * read, and at ~1 GB/s that external memory sets off a full garbage collection every few dozen
 * milliseconds; here a download allocates 6 MiB once. Each chunk is read whole and checked against its
 * checksum, its last piece held back until the check passes (as `verifying` does for streams), so a
 * damaged chunk never looks delivered. `first` is the first part's reader, opened before the reply is
 * taken over (a missing blob is then still a normal error answer). Parts whose store cannot read this
 * way (mid-migration, a remote store) are streamed through `store.get`.
 */
export async function sendDirect(opts: {
  request: FastifyRequest;
  reply: FastifyReply;
  store: BlobStore;
  /** Page-aligned buffers of DOWNLOAD_BUFFER_BYTES, lent for the download and given back after (null: small ones of its own). */
  buffers: ChunkBufferPool | null;
  parts: ChunkPart[];
  first: BlobReader;
  onDelivered?: () => Promise<void>;
  /** Told of each write, so a client that stops reading is dropped (DOWNLOAD_IDLE_TIMEOUT_MS). */
  watch?: DownloadWatch;
}): Promise<void> {
  const { request, reply, store, parts } = opts;
  // The reply's headers so far (helmet's, ours) go out with the first byte; onSend hooks do not run.
  reply.header('x-request-id', request.id);
  reply.hijack();
  const raw = reply.raw;
  const pieces = new PiecePool(raw, opts.buffers);
  let headSent = false;
  const writeHead = () => {
    if (headSent) return;
    // Fastify's header record types request headers too; every value here is a response header.
    raw.writeHead(reply.statusCode, reply.getHeaders() as OutgoingHttpHeaders);
    headSent = true;
  };
  // A write's callback may never come once the connection is gone: closing fails the writes still
  // waiting, so the sender stops and its buffers go back.
  const waiting = new Set<(err: Error) => void>();
  raw.once('close', () => {
    for (const fail of waiting) fail(new Error('the client went away'));
    waiting.clear();
  });
  const writeSlice = (bytes: Uint8Array): Promise<void> =>
    new Promise((resolve, reject) => {
      if (raw.destroyed) return reject(new Error('the client went away'));
      waiting.add(reject);
      opts.watch?.writeStarted();
      raw.write(bytes, (err) => {
        waiting.delete(reject);
        opts.watch?.writeDone();
        if (err) reject(err);
        else resolve();
      });
    });
  const write = (bytes: Uint8Array): Promise<void> => {
    writeHead();
    if (bytes.length <= WRITE_SLICE_BYTES) return writeSlice(bytes);
    // Slices, all handed over at once (the socket queues them): the watch sees each one taken.
    const slices: Promise<void>[] = [];
    for (let at = 0; at < bytes.length; at += WRITE_SLICE_BYTES) {
      const slice = writeSlice(bytes.subarray(at, at + WRITE_SLICE_BYTES));
      slice.catch(() => {}); // the last one is awaited; an earlier failure fails it too
      slices.push(slice);
    }
    return Promise.all(slices).then(() => {});
  };
  try {
    /** The checked last piece of the part before, written once the next part is under way or at the end. */
    let last: Held | null = null;
    for (const [i, part] of parts.entries()) {
      const reader = i === 0 ? opts.first : await store.openReader?.(part.blobId);
      if (last) pieces.sent(last.k, write(last.bytes));
      last = null;
      if (!reader) {
        for await (const piece of await store.get(part.blobId, part, part.check))
          await write(piece as Buffer);
        continue;
      }
      try {
        last = await sendChunk(reader, part, pieces, write);
      } finally {
        await reader.close();
      }
    }
    if (opts.onDelivered) {
      await opts.onDelivered().catch((err: unknown) => {
        request.log.error({ err }, 'could not record a download');
      });
    }
    // The file's last bytes go out with the end of the response, in one call: a client never holds
    // every byte of a response the server still counts as open.
    writeHead();
    raw.end(last?.bytes);
  } catch (err) {
    fail(raw, headSent, err, request);
  } finally {
    pieces.finished();
  }
}

/** Checked bytes waiting in pooled buffer `k`. */
type Held = { bytes: Uint8Array; k: number };

/** A few reused buffers; one may be filled again once the write of what it held has finished. */
class PiecePool {
  private readonly buffers: Buffer[];
  private readonly writes: Promise<void>[];
  private turn = 0;
  /** Bytes per piece, and reads a chunk keeps in flight (fewer for a download's own small buffers). */
  readonly pieceBytes: number;
  readonly readAhead: number;
  private readonly raw: ServerResponse;
  /** Gives the lent buffer back once both the response and the sender are done with it. */
  private readonly doneWith: () => void = () => {};

  constructor(raw: ServerResponse, pool: ChunkBufferPool | null) {
    this.raw = raw;
    const lent = pool?.tryAcquire() ?? null;
    const pieces = lent ? PIECES : SMALL_PIECES;
    this.pieceBytes = lent ? PIECE_BYTES : SMALL_PIECE_BYTES;
    this.readAhead = lent ? READ_AHEAD : SMALL_READ_AHEAD;
    this.writes = Array.from({ length: pieces }, () => Promise.resolve());
    const small = lent ? null : Buffer.allocUnsafeSlow(pieces * SMALL_PIECE_BYTES);
    this.buffers = Array.from({ length: pieces }, (_, k) =>
      lent
        ? Buffer.from(lent, k * PIECE_BYTES, PIECE_BYTES)
        : small!.subarray(k * SMALL_PIECE_BYTES, (k + 1) * SMALL_PIECE_BYTES),
    );
    if (!lent) return;
    // Two holders: the response, until it closes (every write handed to the socket, or the connection
    // cut), and the sender, until no read fills a piece any more. A client that leaves closes the
    // response while reads are still in flight; giving the buffer back then would let the next download
    // take it and have those late reads overwrite bytes it has already checked.
    let holders = 2;
    this.doneWith = () => {
      holders -= 1;
      if (holders === 0) pool!.release(lent);
    };
    raw.once('close', this.doneWith);
  }

  /** The sender is done: no read fills a piece any more. */
  finished(): void {
    this.doneWith();
  }

  /** The next buffer in rotation, once its previous write is done; its index names it to `sent`. */
  async next(): Promise<{ buffer: Buffer; k: number }> {
    const k = this.turn++ % this.buffers.length;
    await this.writes[k];
    if (this.raw.destroyed) throw new Error('the client went away');
    return { buffer: this.buffers[k]!, k };
  }

  /** Records the write of bytes held in buffer `k` (awaited before the buffer is reused). */
  sent(k: number, write: Promise<void>): void {
    write.catch(() => {}); // awaited by next(); this keeps a failure nobody waits for from going unhandled
    this.writes[k] = write;
  }
}

/**
 * Reads one chunk piece by piece into pooled buffers, `READ_AHEAD` reads in flight, checks it, and
 * writes the bytes of the part's range, each piece once the next one has been read. The last piece
 * (if the range reaches into it) is returned once the check has passed, for the caller to send.
 */
async function sendChunk(
  reader: BlobReader,
  part: ChunkPart,
  pieces: PiecePool,
  write: (bytes: Uint8Array) => Promise<void>,
): Promise<Held | null> {
  const checker = chunkChecker(part.check);
  const size = part.check.size;
  const { pieceBytes, readAhead: ahead } = pieces;
  const reads: Promise<Read>[] = [];
  let next = 0; // where the next read starts
  const readAhead = () => {
    if (next >= size) return;
    const pos = next;
    const want = Math.min(pieceBytes, size - pos);
    next += want;
    const read = pieces.next().then(async ({ buffer, k }) => {
      // A chunk of more than one piece came from a pooled upload buffer and was written with O_DIRECT:
      // whole pieces let the store read it the same way (it stops at the file's end). A smaller one
      // (a file's first megabyte, written from its own buffer) is read through the page cache.
      const into = size > pieceBytes ? buffer : buffer.subarray(0, want);
      const n = Math.min(await reader.read(into, pos), want);
      return { k, pos, want, bytes: buffer.subarray(0, n) };
    });
    read.catch(() => {}); // awaited below, or settled in `finally` once an earlier read failed
    reads.push(read);
  };
  let held: Held | null = null;
  try {
    for (let i = 0; i < ahead; i++) readAhead();
    for (let read = reads.shift(); read; read = reads.shift()) {
      const { bytes, k, pos, want } = await read;
      checker.update(bytes);
      const inRange = withinRange(bytes, pos, part);
      if (held) pieces.sent(held.k, write(held.bytes));
      held = inRange ? { bytes: inRange, k } : null;
      if (bytes.length < want) break; // the blob ends early: the check below says so
      readAhead();
    }
    checker.verify(part.blobId);
    return held;
  } finally {
    // No buffer may be reused, nor the reader closed, while a read still fills one.
    await Promise.allSettled(reads);
  }
}

/** A piece read into pooled buffer `k`: `want` bytes asked for at `pos`, `bytes` what came. */
type Read = { bytes: Buffer; k: number; pos: number; want: number };

/** Ends a response that failed: an error answer if nothing went out yet, otherwise a cut connection. */
function fail(raw: ServerResponse, headSent: boolean, err: unknown, request: FastifyRequest): void {
  if (raw.destroyed) return; // the client left; nothing to tell
  request.log.error({ err }, 'download failed');
  if (headSent) {
    raw.destroy();
    return;
  }
  const body = JSON.stringify(serverFault(err));
  raw.writeHead(faultStatus(err), {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-request-id': request.id,
  });
  raw.end(body);
}

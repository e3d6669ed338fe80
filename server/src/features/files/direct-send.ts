import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type BlobReader,
  type BlobStore,
  type ChunkCheck,
  chunkChecker,
  withinRange,
} from '../../platform/blob-store/index.ts';
import { serverFault } from '../../platform/errors.ts';

/** One chunk's share of a response: the inclusive byte range inside the chunk, and its record. */
export type ChunkPart = { blobId: string; start: number; end: number; check: ChunkCheck };

/** Bytes read (and written to the socket) at a time. */
const PIECE_BYTES = 1024 * 1024;
/** Pieces in rotation: one being read while the others are written. */
const PIECES = 3;

/**
 * Sends the parts of a download straight to the socket from a few reused buffers, for chunks in a
 * store that reads into the caller's buffer (local disk). A stream would allocate a new buffer per
 * read, and at ~1 GB/s that external memory sets off a full garbage collection every few dozen
 * milliseconds; here a download allocates 3 MiB once. Each chunk is read whole and checked against its
 * checksum, its last piece held back until the check passes (as `verifying` does for streams), so a
 * damaged chunk never looks delivered. `first` is the first part's reader, opened before the reply is
 * taken over (a missing blob is then still a normal error answer). Parts whose store cannot read this
 * way (mid-migration, a remote store) are streamed through `store.get`.
 */
export async function sendDirect(opts: {
  request: FastifyRequest;
  reply: FastifyReply;
  store: BlobStore;
  parts: ChunkPart[];
  first: BlobReader;
  onDelivered?: () => Promise<void>;
}): Promise<void> {
  const { request, reply, store, parts } = opts;
  // The reply's headers so far (helmet's, ours) go out with the first byte; onSend hooks do not run.
  reply.header('x-request-id', request.id);
  reply.hijack();
  const raw = reply.raw;
  const pieces = new PiecePool(raw);
  let headSent = false;
  const writeHead = () => {
    if (headSent) return;
    // Fastify's header record types request headers too; every value here is a response header.
    raw.writeHead(reply.statusCode, reply.getHeaders() as OutgoingHttpHeaders);
    headSent = true;
  };
  const write = (bytes: Uint8Array): Promise<void> => {
    writeHead();
    return new Promise((resolve, reject) => raw.write(bytes, (err) => (err ? reject(err) : resolve())));
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
  }
}

/** Checked bytes waiting in pooled buffer `k`. */
type Held = { bytes: Uint8Array; k: number };

/** A few reused buffers; one may be filled again once the write of what it held has finished. */
class PiecePool {
  private readonly buffers = Array.from({ length: PIECES }, () => Buffer.allocUnsafeSlow(PIECE_BYTES));
  private readonly writes: Promise<void>[] = this.buffers.map(() => Promise.resolve());
  private turn = 0;
  private readonly raw: ServerResponse;

  constructor(raw: ServerResponse) {
    this.raw = raw;
  }

  /** The next buffer in rotation, once its previous write is done; its index names it to `sent`. */
  async next(): Promise<{ buffer: Buffer; k: number }> {
    const k = this.turn++ % PIECES;
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
 * Reads one chunk piece by piece into pooled buffers, checks it, and writes the bytes of the part's
 * range, each piece once the next one has been read. The last piece (if the range reaches into it) is
 * returned once the check has passed, for the caller to send.
 */
async function sendChunk(
  reader: BlobReader,
  part: ChunkPart,
  pieces: PiecePool,
  write: (bytes: Uint8Array) => Promise<void>,
): Promise<Held | null> {
  const checker = chunkChecker(part.check);
  let held: Held | null = null;
  let pos = 0;
  while (pos < part.check.size) {
    const { buffer, k } = await pieces.next();
    const n = await reader.read(buffer.subarray(0, Math.min(buffer.length, part.check.size - pos)), pos);
    if (n === 0) break; // shorter than recorded: the check below says so
    const bytes = buffer.subarray(0, n);
    checker.update(bytes);
    const inRange = withinRange(bytes, pos, part);
    pos += n;
    if (held) pieces.sent(held.k, write(held.bytes));
    held = inRange ? { bytes: inRange, k } : null;
  }
  checker.verify(part.blobId);
  return held;
}

/** Ends a response that failed: an error answer if nothing went out yet, otherwise a cut connection. */
function fail(raw: ServerResponse, headSent: boolean, err: unknown, request: FastifyRequest): void {
  if (raw.destroyed) return; // the client left; nothing to tell
  request.log.error({ err }, 'download failed');
  if (headSent) {
    raw.destroy();
    return;
  }
  const body = JSON.stringify(serverFault(err));
  raw.writeHead(500, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-request-id': request.id,
  });
  raw.end(body);
}

import { PassThrough, Readable } from 'node:stream';
import type { BlobStore } from '../blob-store/index.ts';
import { chunkCheck, type RecordedChunk } from './chunk-reader.ts';
import type { ChunkPart } from './direct-send.ts';

/**
 * The platform's read API for stored bytes: a file's bytes [start, end] from its recorded chunks, each
 * read through the blob store and checked against its record (size, CRC32C). Downloads, ZIPs,
 * thumbnails and the music library read through it; none goes through an HTTP module.
 */

/** Which bytes of which chunks make up the file's bytes [start, end]. */
export function planParts(chunks: RecordedChunk[], start: number, end: number): ChunkPart[] {
  const parts: ChunkPart[] = [];
  let offset = 0;
  for (const c of chunks) {
    const cStart = offset;
    const cEnd = offset + c.size - 1;
    offset += c.size;
    if (cEnd < start || cStart > end) continue;
    parts.push({
      blobId: c.blob_id,
      start: Math.max(start, cStart) - cStart,
      end: Math.min(end, cEnd) - cStart,
      check: chunkCheck(c),
    });
  }
  return parts;
}

/** The bytes [start, end] of a file, read chunk by chunk from the store. The first chunk is opened eagerly. */
export async function streamRange(
  store: Pick<BlobStore, 'get'>,
  chunks: RecordedChunk[],
  start: number,
  end: number,
): Promise<Readable> {
  const parts = planParts(chunks, start, end);
  const [head, ...rest] = parts;
  if (!head) return Readable.from([]);
  // Opened before the headers go out, so a missing blob is an error response, not a cut-off body.
  const first = await store.get(head.blobId, head, head.check);
  if (rest.length === 0) return first;
  // A quarter of a MiB between the chunks' streams and the response: what a stalled client holds here.
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  (async () => {
    await pump(first, out);
    for (const p of rest) await pump(await store.get(p.blobId, p, p.check), out);
    out.end();
  })().catch((e: unknown) => out.destroy(e instanceof Error ? e : new Error(String(e))));
  return out;
}

function pump(source: Readable, out: PassThrough): Promise<void> {
  return new Promise((resolve, reject) => {
    const onOutClose = () => {
      source.destroy();
      reject(new Error('response closed'));
    };
    const settle = () => out.off('close', onOutClose);
    out.once('close', onOutClose);
    source.once('error', (e) => {
      settle();
      reject(e);
    });
    source.once('end', () => {
      settle();
      resolve();
    });
    source.pipe(out, { end: false });
  });
}

import { PassThrough, pipeline, Readable, Transform } from 'node:stream';
import { create as createContentDisposition } from 'content-disposition';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';
import type { BlobStore } from '../../platform/blob-store/index.ts';
import { chunkCheck } from './chunk-check.ts';
import type { FilesContext } from './context.ts';
import { type ChunkPart, sendDirect } from './direct-send.ts';
import { startDownload } from './download-limits.ts';
import type { FileChunksTable, FilesTable } from './tables.ts';

/** A byte range to send, the whole file (null), or a range no byte of the file satisfies. */
export type RangeRequest = { start: number; end: number } | 'unsatisfiable' | null;

/**
 * Parses a Range header against a file size (RFC 9110 §14). Syntax the server does not support
 * (other units, several ranges, malformed values) is ignored, which the RFC allows: the whole file
 * is sent with 200.
 *
 * Kept by hand rather than `range-parser`: that library answers a suffix longer than the file
 * (`bytes=-30` of 10 bytes) and a reversed range (`bytes=5-2`) as unsatisfiable (416), where RFC 9110
 * §14.1.2 wants the whole file and an ignored header; both are tested below.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return null;
  const [, first = '', last = ''] = m;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Number.MAX_SAFE_INTEGER : Number(last);
  if (!Number.isSafeInteger(start) || end < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

/** RFC 6266 attachment header (the `content-disposition` library): an ASCII fallback plus the exact UTF-8 name. */
export function contentDisposition(name: string): string {
  return createContentDisposition(name, { type: 'attachment' });
}

export function etagOf(file: FilesTable): string {
  return `"${file.sha256 ?? `${file.id}-${Number(file.size)}`}"`;
}

/** Which bytes of which chunks make up the file's bytes [start, end]. */
export function planParts(chunks: FileChunksTable[], start: number, end: number): ChunkPart[] {
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
  store: BlobStore,
  chunks: FileChunksTable[],
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

/**
 * Passes the bytes through and, once the file's last byte has gone into the response, awaits
 * `onDelivered` before the response ends: an aborted transfer never counts, and a client that has
 * the whole file already sees it counted.
 */
function countOnLastByte(
  body: Readable,
  onDelivered: () => Promise<void>,
  request: FastifyRequest,
): Readable {
  const counter = new Transform({
    transform: (chunk, _encoding, callback) => callback(null, chunk),
    flush: (callback) => {
      onDelivered().then(
        () => callback(),
        (err: unknown) => {
          request.log.error({ err }, 'could not record a download');
          callback();
        },
      );
    },
  });
  return pipeline(body, counter, () => {});
}

/** Pipes one source into `out` without ending it; destroys the source if `out` closes first. */
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

/**
 * How a preview is served instead of a download (files/preview.ts): its media type, and `inline` for
 * what the browser may show in place. The sandboxing CSP and nosniff stay whatever this says.
 */
export type Presentation = { contentType: string; inline: boolean };

/**
 * Sends a stored file: Content-Length, ETag (the file's SHA-256), Range (206/416), conditional 304,
 * an attachment Content-Disposition, nosniff and a sandboxing CSP so an uploaded HTML or SVG never
 * runs in the portal's origin. `onDelivered` runs once a GET has sent the file's last byte.
 */
export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  { store, downloadBuffers, downloads }: Pick<FilesContext, 'store' | 'downloadBuffers' | 'downloads'>,
  file: FilesTable,
  chunks: FileChunksTable[],
  onDelivered?: () => Promise<void>,
  presentation?: Presentation,
  /** The member downloading (a ticket's holder); the signed-in caller's id by default. */
  member: string | null = request.auth?.user.discord_id ?? null,
): Promise<FastifyReply> {
  const size = Number(file.size);
  const etag = etagOf(file);
  reply.header('accept-ranges', 'bytes').header('etag', etag).header('cache-control', 'private, no-cache');
  // Conditional GET (RFC 9110 §13): If-None-Match against our ETag, by the `fresh` library.
  if (fresh(request.headers, { etag })) return reply.code(304).send();

  const ifRange = request.headers['if-range'] as string | undefined;
  const range = ifRange && ifRange.trim() !== etag ? null : parseRange(request.headers.range, size);
  if (range === 'unsatisfiable') {
    return reply
      .code(416)
      .header('content-range', `bytes */${size}`)
      .send({
        success: false,
        error: `Range not satisfiable: the file has ${size} bytes`,
        code: 'RANGE_NOT_SATISFIABLE',
      });
  }
  reply
    .header('content-type', presentation?.contentType ?? 'application/octet-stream')
    .header(
      'content-disposition',
      presentation?.inline
        ? createContentDisposition(file.name, { type: 'inline' })
        : contentDisposition(file.name),
    )
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cross-origin-resource-policy', 'same-origin');
  const start = range ? range.start : 0;
  const end = range ? range.end : size - 1;
  if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
  reply.header('content-length', String(end - start + 1));

  if (request.method === 'HEAD' || size === 0) {
    if (size === 0 && request.method === 'GET' && onDelivered) await onDelivered();
    // An empty stream keeps our Content-Length (Fastify's HEAD handling would read a real one to the end).
    return reply.send(Readable.from([]));
  }
  const delivered = onDelivered && end === size - 1 ? onDelivered : undefined;
  // A body holds memory until the client has taken it: counted per member, per address and in all
  // (429/503 beyond), given back when the response closes, and dropped if the client stops reading.
  const watch = startDownload(downloads, request, reply, member);
  const parts = planParts(chunks, start, end);
  // Opened before the headers go out, so a missing blob is an error response, not a cut-off body.
  const first = parts[0] ? await store.openReader?.(parts[0].blobId) : null;
  if (first) {
    await sendDirect({
      request,
      reply,
      store,
      // Past its client's first few downloads, a download reads into 768 KiB of its own (download-limits.ts).
      buffers: watch.fast ? downloadBuffers : null,
      parts,
      first,
      onDelivered: delivered,
      watch,
    });
    return reply;
  }
  let body = await streamRange(store, chunks, start, end);
  if (delivered) body = countOnLastByte(body, delivered, request);
  return reply.send(body);
}

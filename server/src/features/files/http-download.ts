import { pipeline, Readable, Transform } from 'node:stream';
import { create as createContentDisposition } from 'content-disposition';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';
import { StoreUnavailableError } from '../../platform/blob-store/index.ts';
import { sendDirect } from '../../platform/transfer/direct-send.ts';
import { contentDisposition, parseRange } from '../../platform/transfer/range.ts';
import { planParts, streamRange } from '../../platform/transfer/stored-bytes.ts';
import type { FilesContext } from './context.ts';
import { startDownload } from './download-limits.ts';
import type { FileChunksTable, FilesTable } from './tables.ts';
import { storageUnavailable } from './upload.ts';

export function etagOf(file: FilesTable): string {
  return `"${file.sha256 ?? `${file.id}-${Number(file.size)}`}"`;
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

/**
 * Where the body sendStoredFile will send for this request begins (0 for the whole file), or null when
 * it sends no bytes of the file: HEAD, a conditional 304 or an unsatisfiable range. The same rules as
 * sendStoredFile's, so a download limit counts exactly the answers that carry the file.
 */
export function firstByteAsked(request: FastifyRequest, file: FilesTable): number | null {
  if (request.method === 'HEAD') return null;
  const etag = etagOf(file);
  if (fresh(request.headers, { etag })) return null;
  const ifRange = request.headers['if-range'] as string | undefined;
  const range =
    ifRange && ifRange.trim() !== etag ? null : parseRange(request.headers.range, Number(file.size));
  if (range === 'unsatisfiable') return null;
  return range ? range.start : 0;
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
  const watch = await startDownload(downloads, request, reply, member);
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
  let body: Readable;
  try {
    body = await streamRange(store, chunks, start, end);
  } catch (e) {
    // A remote store down before the first byte: the member is told to try again, the log says why.
    if (!(e instanceof StoreUnavailableError)) throw e;
    request.log.error({ err: e }, 'file storage failed during a download');
    throw storageUnavailable();
  }
  if (delivered) body = countOnLastByte(body, delivered, request);
  return reply.send(body);
}

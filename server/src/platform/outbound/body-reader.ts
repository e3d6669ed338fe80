import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { OutboundTimeoutError } from './errors.ts';

/** Bytes read before the charset is decided (a `<meta charset>` must sit in the first 1024, per HTML). */
const SNIFF_BYTES = 1024;

export type BodyScan = {
  /** Strings searched for anywhere in the body, exactly (a site's e_string and m_string). */
  markers: string[];
  /** Strings searched for without regard to case (the account, for the "must appear" guard). */
  caseless?: string[];
  /** Most decoded bytes read while searching; a body longer than this is cut there and flagged. */
  maxBytes: number;
  /** Characters of the start of the body kept as `body` (block-page signatures live in the head). */
  keepChars: number;
};

export type ReadBody = {
  body: string;
  truncated: boolean;
  /** With a scan: whether each marker (and each caseless string) occurs in the body. */
  markers?: boolean[];
  caseless?: boolean[];
};

type Source = Readable & AsyncIterable<Buffer>;

/**
 * Reads a response body as text: the content encoding (gzip, deflate, br) undone, the charset from the
 * Content-Type or the page's `<meta>` honoured (windows-1251, Shift_JIS, … through the ICU TextDecoder).
 * Without a scan it keeps up to `maxBytes` decoded bytes. With a scan it streams the whole body (up to
 * `scan.maxBytes`) through a search for the markers, keeping only the head, so a marker deep in a large
 * profile page is still found and memory stays bounded.
 */
export async function readBody(
  raw: Source,
  headers: Record<string, string>,
  signal: AbortSignal,
  options: { maxBytes: number; scan?: BodyScan },
): Promise<ReadBody> {
  const stream = decompressed(raw, headers['content-encoding']);
  const scan = options.scan;
  const limit = scan ? scan.maxBytes : options.maxBytes;
  const found = scan ? scan.markers.map((m) => m === '') : undefined;
  const foundCaseless = scan?.caseless?.map((m) => m === '');
  const lowered = scan?.caseless?.map((m) => m.toLowerCase());
  const overlap = scan
    ? Math.max(0, ...scan.markers.map((m) => m.length), ...(lowered ?? []).map((m) => m.length)) - 1
    : 0;
  let decoder: TextDecoder | undefined;
  let pending: Buffer[] = [];
  let pendingSize = 0;
  let size = 0;
  let head = '';
  let tail = '';
  let truncated = false;

  const keep = scan ? scan.keepChars : Number.POSITIVE_INFINITY;
  const take = (text: string) => {
    if (head.length < keep) head += text.slice(0, keep - head.length);
    if (!scan) return;
    const window = tail + text;
    scan.markers.forEach((m, i) => {
      if (!found![i] && window.includes(m)) found![i] = true;
    });
    if (lowered) {
      const lower = window.toLowerCase();
      lowered.forEach((m, i) => {
        if (!foundCaseless![i] && lower.includes(m)) foundCaseless![i] = true;
      });
    }
    tail = overlap > 0 ? window.slice(-overlap) : '';
  };
  const allFound = () => !!found && found.every(Boolean) && (foundCaseless ?? []).every(Boolean);

  try {
    for await (const piece of stream as AsyncIterable<Buffer>) {
      if (signal.aborted) throw new OutboundTimeoutError();
      let chunk = piece;
      if (size + chunk.length > limit) {
        chunk = chunk.subarray(0, limit - size);
        truncated = true;
      }
      size += chunk.length;
      if (!decoder) {
        pending.push(chunk);
        pendingSize += chunk.length;
        if (pendingSize < SNIFF_BYTES && !truncated) continue;
        const start = Buffer.concat(pending);
        pending = [];
        decoder = textDecoder(headers['content-type'], start);
        take(decoder.decode(start, { stream: true }));
      } else {
        take(decoder.decode(chunk, { stream: true }));
      }
      // A scan can stop once everything it looks for is known to be there.
      if (truncated || allFound()) break;
    }
    if (!decoder) {
      const start = Buffer.concat(pending);
      decoder = textDecoder(headers['content-type'], start);
      take(decoder.decode(start, { stream: true }));
    }
    take(decoder.decode());
  } finally {
    stream.destroy();
    if (stream !== raw) raw.destroy();
  }
  return { body: head, truncated, markers: found, caseless: foundCaseless };
}

function decompressed(raw: Source, encoding: string | undefined): Source {
  const kind = encoding?.trim().toLowerCase();
  const decoder =
    kind === 'gzip' || kind === 'x-gzip'
      ? zlib.createGunzip()
      : kind === 'deflate'
        ? zlib.createInflate()
        : kind === 'br'
          ? zlib.createBrotliDecompress()
          : null;
  if (!decoder) return raw;
  // Errors of either side surface on the decoder (pipeline destroys both), where the reader sees them.
  pipeline(raw, decoder, () => {});
  return decoder as unknown as Source;
}

/** The charset a page declares: the Content-Type's, else a `<meta>` in its first bytes, else UTF-8. */
export function textDecoder(contentType: string | undefined, start: Buffer): TextDecoder {
  const declared =
    /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1] ??
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(start.subarray(0, SNIFF_BYTES).toString('latin1'))?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8');
  } catch {
    // An unknown label: UTF-8, as browsers do for labels they do not know.
    return new TextDecoder('utf-8');
  }
}

import { create as createContentDisposition } from 'content-disposition';

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

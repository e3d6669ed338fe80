import type { FastifyInstance } from 'fastify';
import { fail } from './errors.ts';

/**
 * Control characters no text of ours ever holds: C0 except tab, line feed and carriage return; DEL; C1.
 * NUL in particular: PostgreSQL refuses it in text (a 500 before this guard), SQLite stores it and every
 * screen then shows a truncated or garbled value.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this regex's job.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** Path parameters and query strings are single-line by nature: tab and line breaks too. */
const LINE_BREAK_OR_TAB = /[\t\n\r]/;

const MAX_DEPTH = 32;

type Found = { where: string; reason: string };

/**
 * One platform-level check before any route validates its input, so no route can forget it: every string
 * (and object key) in the path parameters, the query string and a parsed JSON body is refused with a 400
 * when it holds a control character or a lone UTF-16 surrogate (which PostgreSQL cannot store either).
 * Numbers beyond 2^53 are refused too (a JSON number that large is already rounded).
 * Tabs and line breaks are allowed in bodies, where a field may be multi-line text; single-line fields
 * (names, titles) refuse them through their own schemas or name rules. Raw bodies (uploads) are bytes,
 * not text, and are not looked at.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const found =
      findBadText(request.params, 'path', true) ??
      findBadText(request.query, 'query', true) ??
      findBadText(request.body, 'body', false);
    if (found) {
      const isNumber = found.reason.startsWith('a number');
      throw fail(
        isNumber ? 'NUMBER_OUT_OF_RANGE' : 'CONTROL_CHARACTER',
        isNumber
          ? `${found.where} is ${found.reason}`
          : `${found.where} contains ${found.reason}; remove it and try again`,
      );
    }
  });
}

/** The first string in `value` that is not clean text, with where it is (`body.name`), or null. */
export function findBadText(value: unknown, where: string, singleLine: boolean, depth = 0): Found | null {
  if (typeof value === 'string') {
    const reason = badTextReason(value, singleLine);
    return reason ? { where, reason } : null;
  }
  // Past 2^53 a JSON number is no longer the integer the client sent, and no column of ours holds it.
  if (typeof value === 'number') {
    return Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER
      ? null
      : { where, reason: `a number out of range (at most ${Number.MAX_SAFE_INTEGER})` };
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findBadText(value[i], `${where}[${i}]`, singleLine, depth + 1);
      if (found) return found;
    }
    return null;
  }
  // Streams (a raw upload body) and other emitters are bytes, not parsed text. Parsed input is a plain
  // object, or one with a null-prototype class (the router's params, the query string parser's result).
  if (typeof (value as { on?: unknown }).on === 'function') return null;
  for (const [key, inner] of Object.entries(value)) {
    const keyReason = badTextReason(key, true);
    if (keyReason) return { where: `${where} (a field name)`, reason: keyReason };
    const found = findBadText(inner, `${where}.${key}`, singleLine, depth + 1);
    if (found) return found;
  }
  return null;
}

function badTextReason(text: string, singleLine: boolean): string | null {
  const control = CONTROL.exec(text);
  if (control) return `control characters (U+${hex(control[0])})`;
  if (singleLine && LINE_BREAK_OR_TAB.test(text)) return 'control characters (a line break or tab)';
  if (!text.isWellFormed()) return 'an unpaired surrogate (invalid Unicode)';
  return null;
}

function hex(ch: string): string {
  return (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
}

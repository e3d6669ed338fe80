import { parse as parseContentDisposition } from 'content-disposition';
import { describe, expect, test } from 'vitest';
import { contentDisposition, parseRange } from './range.ts';

describe('Range parsing (RFC 9110)', () => {
  test.each([
    ['bytes=0-4', 10, { start: 0, end: 4 }],
    ['bytes=5-', 10, { start: 5, end: 9 }],
    ['bytes=-3', 10, { start: 7, end: 9 }],
    ['bytes=-30', 10, { start: 0, end: 9 }],
    ['bytes=9-9', 10, { start: 9, end: 9 }],
    ['bytes=3-100', 10, { start: 3, end: 9 }],
    ['BYTES = 1 - 2', 10, { start: 1, end: 2 }],
  ])('%s of %d bytes → %j', (header, size, range) => {
    expect(parseRange(header, size)).toEqual(range);
  });
  test.each([
    ['bytes=10-', 10],
    ['bytes=10-20', 10],
    ['bytes=-0', 10],
    ['bytes=0-', 0],
    ['bytes=-5', 0],
  ])('%s of %d bytes cannot be satisfied', (header, size) => {
    expect(parseRange(header, size)).toBe('unsatisfiable');
  });
  test.each([
    undefined,
    '',
    'bytes=',
    'bytes=-',
    'bytes=5-2',
    'items=0-1',
    'bytes=0-1,3-4',
    'bytes=a-b',
    'bytes=1.5-2',
  ])('%j is ignored (whole file)', (header) => {
    expect(parseRange(header, 10)).toBeNull();
  });
});

describe('Content-Disposition (RFC 6266 / 8187)', () => {
  /** What a client reads from the header: the RFC 8187 name when given, else the plain one. */
  const nameIn = (header: string) => parseContentDisposition(header).parameters.filename;

  test('an ASCII name is sent as an attachment under its own name', () => {
    expect(contentDisposition('report.pdf')).toBe('attachment; filename=report.pdf');
  });
  test('any Unicode name survives in filename*, with an ASCII fallback', () => {
    const header = contentDisposition('Отчёт 📄 "final".pdf');
    expect(header).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''[A-Za-z0-9%!._~-]+$/);
    expect(nameIn(header)).toBe('Отчёт 📄 "final".pdf');
  });
  test('quotes, backslashes, percent signs and parentheses come back exactly', () => {
    for (const name of [`a"b\\c%d'e(f)*.txt`, 'plain name.txt', '100% ünïcödé.tar.gz']) {
      expect(nameIn(contentDisposition(name))).toBe(name);
      expect(contentDisposition(name).startsWith('attachment;')).toBe(true);
    }
  });
  test('a header value never carries a line break or other control character', () => {
    for (const name of ['é\u2028x', '名前', '\u00a0x']) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
      expect(contentDisposition(name)).not.toMatch(/[\u0000-\u001f\u007f-\uffff]/);
    }
  });
});

import { describe, expect, it, test } from 'vitest';
import {
  CategoryName,
  FolderCreateBody,
  fileExtension,
  formatFileSize,
  ItemName,
  isShareExpired,
  nameProblem,
  processingProgress,
  ShareCreateBody,
  uploadStageText,
} from './files.ts';

describe('formatFileSize (Bytes, KB, MB, GB, TB; base 1024; 2 decimals)', () => {
  test.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1024 * 1024 * 1.234, '1.23 MB'],
    [8 * 1024 ** 3, '8 GB'],
    [3.5 * 1024 ** 4, '3.5 TB'],
    [1024 ** 5, '1024 TB'],
  ])('%d → %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });
});

describe('upload card texts and progress mapping (portal-tools §4)', () => {
  test('below 35 processing, below 95 uploading chunks, then finalizing', () => {
    expect(uploadStageText(0)).toBe('Processing file...');
    expect(uploadStageText(15)).toBe('Processing file...');
    expect(uploadStageText(35)).toBe('Uploading chunks...');
    expect(uploadStageText(94)).toBe('Uploading chunks...');
    expect(uploadStageText(95)).toBe('Finalizing upload...');
    expect(uploadStageText(100)).toBe('Finalizing upload...');
  });
  test('server progress 0–1 maps onto 35–95', () => {
    expect(processingProgress(0)).toBe(35);
    expect(processingProgress(0.5)).toBe(65);
    expect(processingProgress(1)).toBe(95);
    expect(processingProgress(7)).toBe(95);
  });
});

describe('names', () => {
  test('any Unicode within 1–255 characters is fine', () => {
    expect(nameProblem('Résumé 📄 отчёт.pdf')).toBeNull();
    expect(nameProblem('😀'.repeat(255))).toBeNull();
    expect(nameProblem('a\\b')).toBeNull();
  });
  test.each([
    ['', 'Name must not be empty'],
    ['x'.repeat(256), 'Name must be at most 255 characters'],
    ['../../x', 'Name must not contain "/"'],
    ['a\u0000b', 'Name must not contain control characters'],
    ['line\nbreak', 'Name must not contain control characters'],
    ['\u0085', 'Name must not contain control characters'],
    ['bad\ud800', 'Name must be valid Unicode text'],
    ['..', 'Name cannot be "." or ".."'],
  ])('%j is refused: %s', (name, problem) => {
    expect(nameProblem(name)).toBe(problem);
  });
  test('a blank folder name gives the spec message', () => {
    const r = FolderCreateBody.safeParse({ name: '   ' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('Please enter a folder name');
  });
  test('names are trimmed', () => {
    expect(FolderCreateBody.parse({ name: '  Docs  ' }).name).toBe('Docs');
  });
  test('the extension comes from the name', () => {
    expect(fileExtension('a.tar.GZ')).toBe('gz');
    expect(fileExtension('.env')).toBe('');
    expect(fileExtension('README')).toBe('');
    expect(fileExtension('trailing.')).toBe('');
  });
});

describe('shares', () => {
  test('a share is Expired once its expiry has passed; no expiry never expires', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(isShareExpired('2029-12-31T23:59:59Z', now)).toBe(true);
    expect(isShareExpired('2030-01-01T00:00:01Z', now)).toBe(false);
    expect(isShareExpired(null, now)).toBe(false);
  });
  test('expiresAt is optional, may be empty (permanent) and must be an ISO timestamp', () => {
    expect(ShareCreateBody.parse({ accessLevel: 'public' }).expiresAt).toBeUndefined();
    expect(ShareCreateBody.parse({ accessLevel: 'public', expiresAt: '' }).expiresAt).toBeNull();
    expect(
      ShareCreateBody.parse({ accessLevel: 'user', expiresAt: '2030-01-01T10:00:00+02:00' }).expiresAt,
    ).toBe('2030-01-01T10:00:00+02:00');
    expect(ShareCreateBody.safeParse({ accessLevel: 'public', expiresAt: 'tomorrow' }).success).toBe(false);
    expect(ShareCreateBody.safeParse({ accessLevel: 'admin' }).success).toBe(false);
  });
});

describe('deceptive names (issue 15)', () => {
  it.each([
    ['evil\u202egpj.exe', 'right-to-left override'],
    ['a\u202ab', 'left-to-right embedding'],
    ['a\u2066b\u2069', 'isolates'],
    ['a\u200eb', 'left-to-right mark'],
    ['a\u200bb.txt', 'zero-width space'],
    ['re\ufeffport.pdf', 'byte-order mark'],
    ['a\u2060b', 'word joiner'],
    ['line\u2028sep', 'line separator'],
    ['para\u2029sep', 'paragraph separator'],
    ['pay\u200dpal.exe', 'a zero-width joiner between Latin letters'],
    ['a\u200cb', 'a zero-width non-joiner between Latin letters'],
  ])('refuses %j (%s) with a clear message', (name) => {
    expect(nameProblem(name)).toBe('Name must not contain invisible or text-direction characters');
  });

  it('keeps the joiners that emoji sequences and scripts need', () => {
    expect(nameProblem('family 👨\u200d👩\u200d👧.png')).toBeNull();
    expect(nameProblem('می\u200cخواهم.txt')).toBeNull();
  });

  it('normalises names to NFC', () => {
    const decomposed = 'Cafe\u0301.txt';
    const parsed = ItemName('name').parse(decomposed);
    expect(parsed).toBe('Café.txt');
    expect(parsed).toBe(parsed.normalize('NFC'));
  });

  it('refuses a category that hides text', () => {
    expect(CategoryName.safeParse('docs\u202e').success).toBe(false);
  });
});

import { describe, expect, test } from 'vitest';
import { nameKey, numberedName } from './names.ts';

describe('duplicate names', () => {
  test('keep-both names are numbered before the extension, as browsers and file managers do', () => {
    expect(numberedName('report.pdf', 1)).toBe('report (1).pdf');
    expect(numberedName('archive.tar.gz', 2)).toBe('archive.tar (2).gz');
    expect(numberedName('notes', 3)).toBe('notes (3)');
    expect(numberedName('.env', 1)).toBe('.env (1)');
  });
  test('a numbered name stays within 255 characters', () => {
    const long = `${'a'.repeat(251)}.txt`;
    const numbered = numberedName(long, 12);
    expect([...numbered].length).toBe(255);
    expect(numbered.endsWith(' (12).txt')).toBe(true);
    const hugeExt = `a.${'x'.repeat(253)}`;
    expect([...numberedName(hugeExt, 1)].length).toBeLessThanOrEqual(255);
  });
  test('the duplicate key ignores case and Unicode normalization', () => {
    expect(nameKey('Report.PDF')).toBe(nameKey('report.pdf'));
    expect(nameKey('Cafe\u0301')).toBe(nameKey('Café'));
    expect(nameKey('a.txt')).not.toBe(nameKey('b.txt'));
  });
});

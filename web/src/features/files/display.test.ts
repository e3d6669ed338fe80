import { FILES_TEXTS, type FileItem } from '@guildhall/common';
import { describe, expect, test } from 'vitest';
import { dateLabel, filterItems, iconKind, itemTitle, shareTarget, sizeLabel } from './display.ts';

const item = (over: Partial<FileItem>): FileItem => ({
  id: 'i',
  name: 'x',
  type: 'file',
  size: 0,
  createdAt: '2030-01-01T00:00:00Z',
  updatedAt: '2030-01-01T00:00:00Z',
  category: 'uncategorized',
  chunks: 0,
  threadId: null,
  parentId: null,
  uploadedBy: null,
  sha256: null,
  ...over,
});

describe('file display', () => {
  test("an item's tooltip names its uploader when known", () => {
    expect(itemTitle(item({ name: 'a.txt' }))).toBe('a.txt');
    expect(itemTitle(item({ name: 'a.txt', uploadedBy: { id: '1', username: 'Ann' } }))).toBe(
      'a.txt — uploaded by Ann',
    );
  });
  test('the filter matches names case-insensitively and ignores surrounding spaces', () => {
    const items = [item({ name: 'Report.PDF' }), item({ name: 'notes.txt' }), item({ name: 'ÜBER.md' })];
    expect(filterItems(items, ' report ').map((i) => i.name)).toEqual(['Report.PDF']);
    expect(filterItems(items, 'über').map((i) => i.name)).toEqual(['ÜBER.md']);
    expect(filterItems(items, '')).toHaveLength(3);
  });
  test('sizes use the spec units; folders show their item count', () => {
    expect(sizeLabel(item({ size: 1536 }))).toBe('1.5 KB');
    expect(sizeLabel(item({ type: 'folder', itemCount: 1 }))).toBe('1 item');
    expect(sizeLabel(item({ type: 'folder', itemCount: 3 }))).toBe('3 items');
  });
  test('an unknown date shows Unknown', () => {
    expect(dateLabel(null)).toBe('Unknown');
    expect(dateLabel('not a date')).toBe('Unknown');
  });
  test('icons follow the extension', () => {
    expect(iconKind(item({ name: 'a.PNG' }))).toBe('image');
    expect(iconKind(item({ name: 'a.tar.gz' }))).toBe('archive');
    expect(iconKind(item({ type: 'folder', name: 'a.png' }))).toBe('folder');
    expect(iconKind(item({ name: 'noext' }))).toBe('file');
  });
  test('sharing needs exactly one file (portal-tools §5)', () => {
    expect(shareTarget([])).toEqual({ error: FILES_TEXTS.selectAFile });
    expect(shareTarget([item({ id: 'a' }), item({ id: 'b' })])).toEqual({
      error: FILES_TEXTS.selectOnlyOneFile,
    });
    expect(shareTarget([item({ id: 'a' })])).toMatchObject({ file: { id: 'a' } });
    expect(shareTarget([item({ id: 'f', type: 'folder' })])).toEqual({ error: FILES_TEXTS.selectAFile });
  });
});

import { FILES_TEXTS, type FileItem } from '@guildhall/common';
import { describe, expect, test } from 'vitest';
import {
  dateLabel,
  filterItems,
  iconKind,
  ownerLabel,
  parseSort,
  shareTarget,
  sizeLabel,
  sortItems,
} from './display.ts';

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
  test('the owner shown is the uploader, "System" only when there is none', () => {
    expect(ownerLabel(item({ name: 'a.txt' }))).toBe('System');
    expect(ownerLabel(item({ name: 'a.txt', uploadedBy: { id: '1', username: 'Ann' } }))).toBe('Ann');
  });
  test('sorting keeps folders first and sorts by name (numerically), size, date or type, either way', () => {
    const items = [
      item({ id: 'a', name: 'file 10.txt', size: 5, updatedAt: '2030-01-03T00:00:00Z' }),
      item({ id: 'b', name: 'file 2.zip', size: 50, updatedAt: '2030-01-01T00:00:00Z' }),
      item({ id: 'f', name: 'Zed', type: 'folder' }),
      item({ id: 'c', name: 'Apple.md', size: 10, updatedAt: '2030-01-02T00:00:00Z' }),
    ];
    const ids = (key: string) => sortItems(items, parseSort(key)).map((i) => i.id);
    expect(ids('name-asc')).toEqual(['f', 'c', 'b', 'a']);
    expect(ids('name-desc')).toEqual(['f', 'a', 'b', 'c']);
    expect(ids('size-desc')).toEqual(['f', 'b', 'c', 'a']);
    expect(ids('date-asc')).toEqual(['f', 'b', 'c', 'a']);
    expect(ids('type-asc')).toEqual(['f', 'c', 'a', 'b']);
    expect(parseSort('junk')).toEqual({ key: 'name', dir: 'asc' });
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
  test('sharing needs exactly one file, or one folder alone (portal-tools §5, issue 45)', () => {
    expect(shareTarget([])).toEqual({ error: FILES_TEXTS.selectAFile });
    expect(shareTarget([item({ id: 'a' }), item({ id: 'b' })])).toEqual({
      error: FILES_TEXTS.selectOnlyOneFile,
    });
    expect(shareTarget([item({ id: 'a' })])).toMatchObject({ file: { id: 'a' } });
    expect(shareTarget([item({ id: 'f', type: 'folder' })])).toMatchObject({ file: { id: 'f' } });
  });
});

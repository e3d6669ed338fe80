import type { Readable } from 'node:stream';
import type { Db } from '../../db/index.ts';
import type { BlobStore } from '../../platform/blob-store/index.ts';
import { streamRange } from '../../platform/transfer/stored-bytes.ts';
import { listChunks } from './repo.ts';
import {
  findCompleteFile,
  type LibraryRow,
  listCompleteFilesEndingWith,
  listCompleteSiblingsEndingWith,
} from './repo-library.ts';

/** How many audio files a search looks through (a community library, not a streaming catalogue). */
const SCAN_LIMIT = 5000;

/** A complete file of the shared file system, as other features may read it. */
export type LibraryFile = {
  id: string;
  name: string;
  size: number;
  sha256: string | null;
  createdAt: string;
};

const toLibraryFile = (r: LibraryRow): LibraryFile => ({
  id: r.id,
  name: r.name,
  size: Number(r.size),
  sha256: r.sha256,
  createdAt: r.created_at,
});

/** One complete file by id, or undefined. */
export async function findLibraryFile(db: Db, id: string): Promise<LibraryFile | undefined> {
  const row = await findCompleteFile(db, id);
  return row && toLibraryFile(row);
}

/**
 * Complete files whose name ends with one of `extensions` (lower case, with the dot) and contains every
 * word of `query` (case-insensitive), in any folder, by name.
 */
export async function searchLibraryFiles(
  db: Db,
  query: string,
  extensions: readonly string[],
  limit: number,
): Promise<LibraryFile[]> {
  const rows = await listCompleteFilesEndingWith(db, extensions, SCAN_LIMIT);
  // Word matching in JS: no LIKE escaping differences between SQLite and PostgreSQL to get wrong.
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return rows
    .filter((r) => words.every((w) => r.name_key.includes(w)))
    .slice(0, limit)
    .map(toLibraryFile);
}

/**
 * The complete files of the folder a file is in (itself included) whose name ends with one of
 * `extensions`, by name; empty when the file is not there (music autoplay, issue 48).
 */
export async function listLibraryFolderFiles(
  db: Db,
  fileId: string,
  extensions: readonly string[],
  limit: number,
): Promise<LibraryFile[]> {
  return (await listCompleteSiblingsEndingWith(db, fileId, extensions, limit)).map(toLibraryFile);
}

/**
 * Streams a complete file's bytes from the blob store, or the inclusive byte range of them (rejects when
 * the file is gone).
 */
export async function openLibraryFile(
  db: Db,
  store: BlobStore,
  file: LibraryFile,
  range: { start: number; end: number } = { start: 0, end: file.size - 1 },
): Promise<Readable> {
  const chunks = await listChunks(db, file.id);
  if (file.size === 0) throw new Error('empty file');
  return streamRange(store, chunks, range.start, range.end);
}

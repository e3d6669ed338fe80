import type { Db } from '../../db/index.ts';
import type { FilesTable } from './tables.ts';

/** Kysely queries of the music library's view of the files (library.ts); no rules here. */

export type LibraryRow = Pick<FilesTable, 'id' | 'name' | 'name_key' | 'size' | 'sha256' | 'created_at'>;

const COLUMNS = ['id', 'name', 'name_key', 'size', 'sha256', 'created_at'] as const;

/** Complete files only: the rows other features may read. */
const completeFiles = (db: Db) =>
  db.selectFrom('files').where('type', '=', 'file').where('status', '=', 'complete');

export async function findCompleteFile(db: Db, id: string): Promise<LibraryRow | undefined> {
  return completeFiles(db).select(COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** Complete files whose name key ends with one of `extensions`, by name; at most `limit`. */
export async function listCompleteFilesEndingWith(
  db: Db,
  extensions: readonly string[],
  limit: number,
): Promise<LibraryRow[]> {
  return completeFiles(db)
    .select(COLUMNS)
    .where((eb) => eb.or(extensions.map((ext) => eb('name_key', 'like', `%${ext}`))))
    .orderBy('name_key')
    .limit(limit)
    .execute();
}

/**
 * The complete files beside file `fileId` (in its folder, itself included) whose name key ends with one
 * of `extensions`, by name; empty when that file is not complete.
 */
export async function listCompleteSiblingsEndingWith(
  db: Db,
  fileId: string,
  extensions: readonly string[],
  limit: number,
): Promise<LibraryRow[]> {
  const file = await completeFiles(db).select(['parent_key']).where('id', '=', fileId).executeTakeFirst();
  if (!file) return [];
  return completeFiles(db)
    .select(COLUMNS)
    .where('parent_key', '=', file.parent_key)
    .where((eb) => eb.or(extensions.map((ext) => eb('name_key', 'like', `%${ext}`))))
    .orderBy('name_key')
    .orderBy('id')
    .limit(limit)
    .execute();
}

import type { Db } from '../../../db/index.ts';
import type { FileThumbnailsTable } from '../tables.ts';

export async function findThumbnail(db: Db, fileId: string): Promise<FileThumbnailsTable | undefined> {
  return db.selectFrom('file_thumbnails').selectAll().where('file_id', '=', fileId).executeTakeFirst();
}

/** Saves a thumbnail; another instance that made the same one first wins (same result). */
export async function saveThumbnail(db: Db, row: FileThumbnailsTable): Promise<void> {
  await db
    .insertInto('file_thumbnails')
    .values(row)
    .onConflict((oc) => oc.column('file_id').doNothing())
    .execute();
}

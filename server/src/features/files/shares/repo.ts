import { sql } from 'kysely';
import type { Db } from '../../../db/index.ts';
import type { FileSharesTable } from '../tables.ts';

/** Kysely queries of share links. */

export async function insertShare(db: Db, row: FileSharesTable): Promise<void> {
  await db.insertInto('file_shares').values(row).execute();
}

export async function findShareById(db: Db, id: string): Promise<FileSharesTable | undefined> {
  return db.selectFrom('file_shares').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findShareByToken(db: Db, token: string): Promise<FileSharesTable | undefined> {
  return db.selectFrom('file_shares').selectAll().where('token', '=', token).executeTakeFirst();
}

/** A file's shares that were not revoked (expired ones included: the modal marks them), newest first. */
export async function listSharesOfFile(db: Db, fileId: string): Promise<FileSharesTable[]> {
  return db
    .selectFrom('file_shares')
    .selectAll()
    .where('file_id', '=', fileId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export async function markShareRevoked(db: Db, id: string, now: string): Promise<number> {
  const r = await db
    .updateTable('file_shares')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** One atomic increment in the database, so concurrent downloads are all counted. */
export async function incrementDownloadCount(db: Db, id: string): Promise<void> {
  await db
    .updateTable('file_shares')
    .set({ download_count: sql<number>`download_count + 1` })
    .where('id', '=', id)
    .execute();
}

import { sql } from 'kysely';
import type { Db } from '../../../db/index.ts';
import type { FileSharesTable, FilesTable } from '../tables.ts';

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

export type ShareChanges = Partial<
  Pick<
    FileSharesTable,
    | 'access_level'
    | 'expires_at'
    | 'password_hash'
    | 'title'
    | 'note'
    | 'max_downloads'
    | 'updated_at'
    | 'notify_downloads'
  >
>;

/** Applies an edit to a share that is not revoked; the number of rows changed (0 or 1). */
export async function updateShareRow(db: Db, id: string, changes: ShareChanges): Promise<number> {
  const r = await db
    .updateTable('file_shares')
    .set(changes)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Tickets already handed out for a share stop working (its password or access level changed). */
export async function deleteShareTickets(db: Db, shareId: string): Promise<void> {
  await db.deleteFrom('download_tickets').where('share_id', '=', shareId).execute();
}

/**
 * Takes one download of a limited share in one atomic UPDATE: false when the limit is already reached,
 * so concurrent downloads can never serve more than the limit.
 */
export async function takeLimitedDownload(db: Db, id: string): Promise<boolean> {
  const r = await db
    .updateTable('file_shares')
    .set({ download_count: sql<number>`download_count + 1` })
    .where('id', '=', id)
    .where('max_downloads', 'is not', null)
    .where(sql<boolean>`download_count < max_downloads`)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** True when this client began a download of the share since `since` (ISO). */
export async function hasClaimSince(db: Db, shareId: string, key: string, since: string): Promise<boolean> {
  const row = await db
    .selectFrom('file_share_claims')
    .select('claimed_at')
    .where('share_id', '=', shareId)
    .where('claim_key', '=', key)
    .where('claimed_at', '>=', since)
    .executeTakeFirst();
  return !!row;
}

/** Records (or renews) this client's download of the share, and forgets claims older than `before`. */
export async function recordClaim(
  db: Db,
  shareId: string,
  key: string,
  now: string,
  before: string,
): Promise<void> {
  await db
    .insertInto('file_share_claims')
    .values({ share_id: shareId, claim_key: key, claimed_at: now })
    .onConflict((oc) => oc.columns(['share_id', 'claim_key']).doUpdateSet({ claimed_at: now }))
    .execute();
  await db
    .deleteFrom('file_share_claims')
    .where('share_id', '=', shareId)
    .where('claimed_at', '<', before)
    .execute();
}

/** The complete files directly inside a folder (a folder share's files), by name. */
export async function listFolderFiles(db: Db, folderId: string): Promise<FilesTable[]> {
  return db
    .selectFrom('files')
    .selectAll()
    .where('parent_id', '=', folderId)
    .where('type', '=', 'file')
    .where('status', '=', 'complete')
    .orderBy('name_key')
    .orderBy('id')
    .execute();
}

/** One complete file directly inside the folder, if it is there. */
export async function findFolderFile(
  db: Db,
  folderId: string,
  fileId: string,
): Promise<FilesTable | undefined> {
  return db
    .selectFrom('files')
    .selectAll()
    .where('id', '=', fileId)
    .where('parent_id', '=', folderId)
    .where('type', '=', 'file')
    .where('status', '=', 'complete')
    .executeTakeFirst();
}

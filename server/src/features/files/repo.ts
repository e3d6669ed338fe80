import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { threadGarbageId } from '../../platform/blob-store/index.ts';
import type { DownloadTicketsTable, FileChunksTable, FilesTable } from './tables.ts';

/** Kysely queries of the files feature; no rules here (see service.ts). */

export type ItemRow = FilesTable & {
  owner_username: string | null;
  item_count: number | string | bigint | null;
};

type Executor = Pick<Db, 'selectFrom' | 'insertInto' | 'updateTable' | 'deleteFrom'>;

const BATCH = 500;

/** Complete (listed) files and folders with their owner's name and, for folders, how many items they hold. */
export function listedItems(db: Db) {
  return db
    .selectFrom('files')
    .leftJoin('users', 'users.discord_id', 'files.owner_id')
    .selectAll('files')
    .select('users.username as owner_username')
    .select((eb) =>
      eb
        .selectFrom('files as child')
        .select(eb.fn.countAll().as('n'))
        .whereRef('child.parent_id', '=', 'files.id')
        .where('child.status', '=', 'complete')
        .as('item_count'),
    )
    .where('files.status', '=', 'complete');
}

export async function findItem(db: Db, id: string): Promise<FilesTable | undefined> {
  return db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findListedItem(db: Db, id: string): Promise<ItemRow | undefined> {
  return listedItems(db).where('files.id', '=', id).executeTakeFirst();
}

/** Complete items directly inside a folder ('' = root): folders first, then by name. */
export async function listChildren(db: Db, parentKey: string): Promise<ItemRow[]> {
  return listedItems(db)
    .where('files.parent_key', '=', parentKey)
    .orderBy('files.type', 'desc')
    .orderBy('files.name_key')
    .execute();
}

/** Complete files one member uploaded, newest first (API tokens' `files:read`, issue 45). */
export async function listOwnFiles(db: Db, ownerId: string, limit: number): Promise<ItemRow[]> {
  return listedItems(db)
    .where('files.type', '=', 'file')
    .where('files.owner_id', '=', ownerId)
    .orderBy('files.created_at', 'desc')
    .orderBy('files.id')
    .limit(limit)
    .execute();
}

/** Complete files of one category (or all), in any folder. */
export async function listFilesByCategory(db: Db, category: string | undefined): Promise<ItemRow[]> {
  let q = listedItems(db).where('files.type', '=', 'file');
  if (category !== undefined) q = q.where('files.category', '=', category);
  return q.orderBy('files.name_key').execute();
}

export async function fileTotals(db: Db): Promise<{ files: number; bytes: number }> {
  const row = await db
    .selectFrom('files')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('size').as('bytes')])
    .where('status', '=', 'complete')
    .where('type', '=', 'file')
    .executeTakeFirstOrThrow();
  return { files: Number(row.n), bytes: Number(row.bytes ?? 0) };
}

export async function listCategoryCounts(db: Db): Promise<{ name: string; count: number }[]> {
  const rows = await db
    .selectFrom('files')
    .select((eb) => ['category', eb.fn.countAll().as('n')])
    .where('status', '=', 'complete')
    .where('type', '=', 'file')
    .groupBy('category')
    .orderBy('category')
    .execute();
  return rows.map((r) => ({ name: r.category, count: Number(r.n) }));
}

/** Which of these name keys are taken by complete items in a folder. */
export async function takenNameKeys(db: Executor, parentKey: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('files')
    .select('name_key')
    .where('parent_key', '=', parentKey)
    .where('status', '=', 'complete')
    .where('name_key', 'in', keys)
    .execute();
  return new Set(rows.map((r) => r.name_key));
}

export async function insertItem(db: Executor, row: FilesTable): Promise<void> {
  await db.insertInto('files').values(row).execute();
}

export async function updateItem(db: Executor, id: string, patch: Partial<FilesTable>): Promise<number> {
  const r = await db.updateTable('files').set(patch).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function insertChunk(db: Db, row: FileChunksTable): Promise<void> {
  await db.insertInto('file_chunks').values(row).execute();
}

export async function listChunks(db: Db, fileId: string): Promise<FileChunksTable[]> {
  return db.selectFrom('file_chunks').selectAll().where('file_id', '=', fileId).orderBy('idx').execute();
}

/** Every item below a folder, any status, found level by level (depth is bounded by MAX_FOLDER_DEPTH). */
export async function descendantsOf(
  db: Executor,
  folderId: string,
): Promise<Pick<FilesTable, 'id' | 'type' | 'status' | 'size'>[]> {
  const found: Pick<FilesTable, 'id' | 'type' | 'status' | 'size'>[] = [];
  let level = [folderId];
  while (level.length > 0) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += BATCH) {
      const rows = await db
        .selectFrom('files')
        .select(['id', 'type', 'status', 'size'])
        .where('parent_id', 'in', level.slice(i, i + BATCH))
        .execute();
      for (const r of rows) {
        found.push(r);
        if (r.type === 'folder') next.push(r.id);
      }
    }
    level = next;
  }
  return found;
}

/** Queues the blobs of these items' chunks for deletion from the store (same transaction as the rows). */
export async function queueChunksAsGarbage(db: Executor, fileIds: string[], now: string): Promise<void> {
  for (let i = 0; i < fileIds.length; i += BATCH) {
    const rows = await db
      .selectFrom('file_chunks')
      .select('blob_id')
      .where('file_id', 'in', fileIds.slice(i, i + BATCH))
      .execute();
    await queueGarbage(
      db,
      rows.map((r) => r.blob_id),
      now,
    );
    const threads = await db
      .selectFrom('files')
      .select('thread_id')
      .where('id', 'in', fileIds.slice(i, i + BATCH))
      .where('thread_id', 'is not', null)
      .execute();
    await queueGarbage(
      db,
      threads.map((r) => threadGarbageId(r.thread_id!)),
      now,
    );
  }
}

export async function queueGarbage(db: Executor, blobIds: string[], now: string): Promise<void> {
  for (let i = 0; i < blobIds.length; i += BATCH) {
    const values = blobIds.slice(i, i + BATCH).map((blob_id) => ({ blob_id, queued_at: now }));
    if (values.length === 0) continue;
    await db
      .insertInto('blob_garbage')
      .values(values)
      .onConflict((oc) => oc.column('blob_id').doNothing())
      .execute();
  }
}

export async function deleteItemRow(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('files').where('id', '=', id).execute();
}

export async function listGarbage(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('blob_garbage')
    .select('blob_id')
    .orderBy('queued_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.blob_id);
}

export async function removeGarbage(db: Db, blobIds: string[]): Promise<void> {
  if (blobIds.length === 0) return;
  await db.deleteFrom('blob_garbage').where('blob_id', 'in', blobIds).execute();
}

/** Uploads whose lease ran out while still receiving, and stored ones never completed in time. */
export async function listAbandonedUploads(db: Db, now: string, storedBefore: string): Promise<string[]> {
  const rows = await db
    .selectFrom('files')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'uploading'), eb('lease_expires_at', '<', now)]),
        eb.and([eb('status', '=', 'stored'), eb('updated_at', '<', storedBefore)]),
      ]),
    )
    .execute();
  return rows.map((r) => r.id);
}

/** The subset of these blob ids that a chunk row or the garbage queue still knows. */
export async function knownBlobIds(db: Db, blobIds: string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let i = 0; i < blobIds.length; i += BATCH) {
    const batch = blobIds.slice(i, i + BATCH);
    const chunks = await db
      .selectFrom('file_chunks')
      .select('blob_id')
      .where('blob_id', 'in', batch)
      .execute();
    const queued = await db
      .selectFrom('blob_garbage')
      .select('blob_id')
      .where('blob_id', 'in', batch)
      .execute();
    for (const r of [...chunks, ...queued]) known.add(r.blob_id);
  }
  return known;
}

export async function insertTicket(db: Db, row: DownloadTicketsTable): Promise<void> {
  await db.insertInto('download_tickets').values(row).execute();
}

export async function findTicket(db: Db, tokenHash: string) {
  return db.selectFrom('download_tickets').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function deleteExpiredTickets(db: Db, now: string): Promise<void> {
  await db.deleteFrom('download_tickets').where('expires_at', '<=', now).execute();
}

/**
 * Lists a stored upload under its final name (status stored → complete). False when it is no longer
 * in `stored` (completed already); a unique violation means the name was taken meanwhile.
 */
export async function publishStoredUpload(
  db: Db,
  id: string,
  name: string,
  key: string,
  now: string,
): Promise<boolean> {
  const updated = await db
    .updateTable('files')
    .set({ status: 'complete', name, name_key: key, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'stored')
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** LIKE wildcards in the member's text are literal characters (escaped with `\\`, on SQLite and PostgreSQL alike). */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `name_key` (of the files table) contains `key` (already a name key) literally. */
const nameKeyContains = (key: string) => sql<boolean>`files.name_key like ${likePattern(key)} escape '\\'`;

/** Listed items in any folder whose name key contains `key`: folders first, then by name; at most `limit`. */
export async function listItemsByNameKey(db: Db, key: string, limit: number): Promise<ItemRow[]> {
  return listedItems(db)
    .where(nameKeyContains(key))
    .orderBy('files.type', 'desc')
    .orderBy('files.name_key')
    .limit(limit)
    .execute();
}

/** Every folder's id, parent and name (what a folder's path is built from). */
export async function listAllFolders(
  db: Db,
): Promise<{ id: string; parent_id: string | null; name: string }[]> {
  return db.selectFrom('files').select(['id', 'parent_id', 'name']).where('type', '=', 'folder').execute();
}

/** One member's own complete files whose name key contains `key`, by name; at most `limit`. */
export async function listOwnFilesByNameKey(
  db: Db,
  ownerId: string,
  key: string,
  limit: number,
): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom('files')
    .select(['id', 'name'])
    .where('type', '=', 'file')
    .where('status', '=', 'complete')
    .where('owner_id', '=', ownerId)
    .where(nameKeyContains(key))
    .orderBy('name_key')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** One member's own complete files named exactly `key` (a name key), at most `limit`. */
export async function listOwnFilesNamed(
  db: Db,
  ownerId: string,
  key: string,
  limit: number,
): Promise<FilesTable[]> {
  return db
    .selectFrom('files')
    .selectAll()
    .where('type', '=', 'file')
    .where('status', '=', 'complete')
    .where('owner_id', '=', ownerId)
    .where('name_key', '=', key)
    .limit(limit)
    .execute();
}

import type { Db } from '../../../db/index.ts';
import type { FilesTable } from '../tables.ts';

/** Kysely queries of the trash; the rules are in service.ts. */

type Executor = Pick<Db, 'selectFrom' | 'updateTable'>;

const BATCH = 500;

/** Marks these items trashed, all under one trash root (the item the member deleted). */
export async function markTrashed(
  db: Executor,
  ids: string[],
  rootId: string,
  userId: string | null,
  now: string,
): Promise<void> {
  for (let i = 0; i < ids.length; i += BATCH) {
    await db
      .updateTable('files')
      .set({ status: 'trashed', deleted_at: now, deleted_by: userId, trash_root_id: rootId, updated_at: now })
      .where('id', 'in', ids.slice(i, i + BATCH))
      .where('status', '=', 'complete')
      .execute();
  }
}

/** Lists again everything one delete trashed. */
export async function markRestored(db: Executor, rootId: string, now: string): Promise<void> {
  await db
    .updateTable('files')
    .set({ status: 'complete', deleted_at: null, deleted_by: null, trash_root_id: null, updated_at: now })
    .where('trash_root_id', '=', rootId)
    .where('status', '=', 'trashed')
    .execute();
}

export type TrashRootRow = FilesTable & { deleted_by_username: string | null };

/** The items members deleted (not what was inside them), newest first. */
export async function listTrashRoots(db: Db): Promise<TrashRootRow[]> {
  return db
    .selectFrom('files')
    .leftJoin('users', 'users.discord_id', 'files.deleted_by')
    .selectAll('files')
    .select('users.username as deleted_by_username')
    .where('files.status', '=', 'trashed')
    .whereRef('files.trash_root_id', '=', 'files.id')
    .orderBy('files.deleted_at', 'desc')
    .execute();
}

/** Bytes of the files each trash root took with it. */
export async function trashedBytesByRoot(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('files')
    .select(['trash_root_id', (eb) => eb.fn.sum<number | string | null>('size').as('bytes')])
    .where('status', '=', 'trashed')
    .where('type', '=', 'file')
    .groupBy('trash_root_id')
    .execute();
  return new Map(rows.map((r) => [r.trash_root_id ?? '', Number(r.bytes ?? 0)]));
}

/** Trash roots deleted before `before` (due for purging). */
export async function listExpiredTrashRoots(db: Db, before: string): Promise<string[]> {
  const rows = await db
    .selectFrom('files')
    .select('id')
    .where('status', '=', 'trashed')
    .whereRef('trash_root_id', '=', 'id')
    .where('deleted_at', '<', before)
    .execute();
  return rows.map((r) => r.id);
}

/** Every id of all folders with their parent and name (paths of search hits and trash items). */
export async function listFolderTree(
  db: Db,
): Promise<{ id: string; parent_id: string | null; name: string }[]> {
  return db.selectFrom('files').select(['id', 'parent_id', 'name']).where('type', '=', 'folder').execute();
}

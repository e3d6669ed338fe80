import { FILE_MANAGER_TEXTS, TRASH_RETENTION_MS, type TrashItem } from '@guildhall/common';
import type { Db } from '../../../db/index.ts';
import { fail } from '../../../platform/errors.ts';
import { RETRY, retryOptimistic } from '../../../platform/optimistic.ts';
import { isoOn } from '../../../platform/time.ts';
import type { FilesContext } from '../context.ts';
import { isUniqueViolation, nameKey, numberedName, parentKeyOf } from '../names.ts';
import {
  deleteItemRow,
  descendantsOf,
  findItem,
  findListedItem,
  type ItemRow,
  queueChunksAsGarbage,
  takenNameKeys,
  updateItem,
} from '../repo.ts';
import { folderPaths } from '../search/paths.ts';
import {
  listExpiredTrashRoots,
  listTrashRoots,
  markRestored,
  markTrashed,
  trashedBytesByRoot,
} from './repo.ts';

/**
 * The trash: a delete marks the item and everything inside it `trashed` (hidden from every listing,
 * search, download and share link, still counted in its owner's quota), restorable for 30 days; then,
 * or when an admin empties the trash, the rows go and their blobs are queued for deletion.
 */

const notInTrash = () => fail('NOT_FOUND', 'This item is not in the trash');

/** Moves a listed item (with what is inside a folder) to the trash. */
export async function trashItem(ctx: Pick<FilesContext, 'db' | 'clock'>, id: string, userId: string | null) {
  const now = isoOn(ctx.clock);
  return ctx.db.transaction().execute(async (trx) => {
    const row = await findItem(trx as Db, id);
    if (row?.status !== 'complete') throw fail('NOT_FOUND', 'Item not found');
    const inside = row.type === 'folder' ? await descendantsOf(trx, id) : [];
    const listed = inside.filter((r) => r.status === 'complete');
    await markTrashed(trx, [id, ...listed.map((r) => r.id)], id, userId, now);
    const files = listed.filter((r) => r.type === 'file').length + (row.type === 'file' ? 1 : 0);
    return { deletedFiles: files, deletedFolders: listed.length + 1 - files };
  });
}

export async function listTrash(db: Db): Promise<{ items: TrashItem[]; bytes: number }> {
  const [roots, bytes, paths] = await Promise.all([
    listTrashRoots(db),
    trashedBytesByRoot(db),
    folderPaths(db),
  ]);
  const items = roots.map(
    (r): TrashItem => ({
      id: r.id,
      name: r.name,
      type: r.type,
      size: bytes.get(r.id) ?? 0,
      deletedAt: r.deleted_at!,
      purgeAt: new Date(Date.parse(r.deleted_at!) + TRASH_RETENTION_MS).toISOString(),
      deletedBy: r.deleted_by ? { id: r.deleted_by, username: r.deleted_by_username ?? 'unknown' } : null,
      originalPath: r.parent_id ? (paths.get(r.parent_id) ?? []) : [],
    }),
  );
  return { items, bytes: [...bytes.values()].reduce((a, b) => a + b, 0) };
}

/**
 * Lists a trashed item again where it was. If its folder is gone or in the trash itself it comes back
 * at the root; if its name was taken meanwhile it gets the first free numbered name (the message says
 * which).
 */
export async function restoreItem(
  db: Db,
  id: string,
  now: string,
): Promise<{ row: ItemRow; message?: string }> {
  // Somebody taking the chosen name meanwhile (a unique violation) makes it choose again; after four
  // such races it gives up with 409.
  const nameRace = () => fail('NAME_TAKEN', FILE_MANAGER_TEXTS.restoreRaced);
  return retryOptimistic(4, nameRace, async () => {
    const row = await findItem(db, id);
    if (row?.status !== 'trashed' || row.trash_root_id !== row.id) throw notInTrash();
    const parent = row.parent_id ? await findItem(db, row.parent_id) : null;
    const parentId = parent?.status === 'complete' ? parent.id : null;
    const parentKey = parentKeyOf(parentId);
    const candidates = Array.from({ length: 50 }, (_, i) => (i === 0 ? row.name : numberedName(row.name, i)));
    const taken = await takenNameKeys(db, parentKey, candidates.map(nameKey));
    const name = candidates.find((c) => !taken.has(nameKey(c)));
    if (!name) throw fail('NAME_TAKEN', `Too many items named "${row.name}" in that folder`);
    try {
      await db.transaction().execute(async (trx) => {
        await updateItem(trx, id, {
          parent_id: parentId,
          parent_key: parentKey,
          name,
          name_key: nameKey(name),
        });
        await markRestored(trx, id, now);
      });
    } catch (e) {
      if (isUniqueViolation(e)) return RETRY;
      throw e;
    }
    const notes: string[] = [];
    if (row.parent_id && !parentId) notes.push('its folder is gone, so it is back in ~/shared');
    if (name !== row.name) notes.push(`renamed to "${name}" because the name was taken`);
    return {
      row: (await findListedItem(db, id))!,
      message: notes.length > 0 ? `${FILE_MANAGER_TEXTS.restored}: ${notes.join('; ')}` : undefined,
    };
  });
}

/** Deletes trashed items for good: their rows (with everything inside) and, through the queue, their blobs. */
export async function purgeTrashRoots(
  ctx: Pick<FilesContext, 'db' | 'garbage' | 'clock'>,
  rootIds: string[],
) {
  let purged = 0;
  for (const id of rootIds) {
    const done = await ctx.db.transaction().execute(async (trx) => {
      const row = await findItem(trx as Db, id);
      if (row?.status !== 'trashed' || row.trash_root_id !== row.id) return false;
      const inside = row.type === 'folder' ? await descendantsOf(trx, id) : [];
      await queueChunksAsGarbage(trx, [id, ...inside.map((r) => r.id)], isoOn(ctx.clock));
      await deleteItemRow(trx, id); // cascades to everything inside, chunks, shares, tickets, thumbnails
      return true;
    });
    if (done) purged++;
  }
  if (purged > 0) ctx.garbage.kick();
  return purged;
}

/** Purges one trashed item now (admins). */
export async function purgeTrashItem(ctx: Pick<FilesContext, 'db' | 'garbage' | 'clock'>, id: string) {
  if ((await purgeTrashRoots(ctx, [id])) === 0) throw notInTrash();
  return 1;
}

/** Empties the whole trash (admins). */
export async function emptyTrash(ctx: Pick<FilesContext, 'db' | 'garbage' | 'clock'>) {
  const roots = await listTrashRoots(ctx.db);
  return purgeTrashRoots(
    ctx,
    roots.map((r) => r.id),
  );
}

/** Purges what has been in the trash longer than the retention (the maintenance sweep calls it). */
export async function purgeExpiredTrash(ctx: Pick<FilesContext, 'db' | 'garbage' | 'clock'>, now: Date) {
  const before = new Date(now.getTime() - TRASH_RETENTION_MS).toISOString();
  return purgeTrashRoots(ctx, await listExpiredTrashRoots(ctx.db, before));
}

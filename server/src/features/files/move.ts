import { MAX_FOLDER_DEPTH, type MoveBody } from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import { fail } from '../../platform/errors.ts';
import { isoOn } from '../../platform/time.ts';
import type { FilesContext } from './context.ts';
import { isUniqueViolation, parentKeyOf } from './names.ts';
import { descendantsOf, findItem, takenNameKeys, updateItem } from './repo.ts';
import { breadcrumbs, nameTaken, requireItem } from './service.ts';

/**
 * Moves files and folders into a folder (or the root). Like Finder and Explorer, a name already taken
 * in the destination refuses the move (409 naming it), a folder cannot go into itself or its own
 * subfolders, and the nesting limit holds for what a moved folder contains. All or nothing: one
 * transaction, so a refused item leaves the others where they were.
 */
export async function moveItems(
  ctx: Pick<FilesContext, 'db' | 'clock'>,
  body: MoveBody,
): Promise<{ moved: number }> {
  const { db } = ctx;
  const ids = [...new Set(body.ids)];
  const target = body.targetFolderId;
  const targetPath = target ? await breadcrumbs(db, target) : []; // 404 unless a listed folder
  const targetAncestors = new Set(targetPath.map((b) => b.id));
  const items = await Promise.all(ids.map((id) => requireItem(db, id)));
  const parentKey = parentKeyOf(target);

  const names = new Map<string, string>();
  for (const item of items) {
    if (targetAncestors.has(item.id)) {
      throw fail('MOVE_INTO_SELF', `"${item.name}" cannot be moved into itself or one of its subfolders`);
    }
    const other = names.get(item.name_key);
    if (other) throw nameTaken(item.name);
    names.set(item.name_key, item.id);
    if (item.type === 'folder') {
      const depth = await subtreeDepth(db, item.id);
      if (targetPath.length + depth > MAX_FOLDER_DEPTH) {
        throw fail('TOO_DEEP', `Folders can be nested at most ${MAX_FOLDER_DEPTH} levels deep`);
      }
    }
  }
  const moving = items.filter((i) => i.parent_key !== parentKey);
  const taken = await takenNameKeys(
    db,
    parentKey,
    moving.map((i) => i.name_key),
  );
  const clash = moving.find((i) => taken.has(i.name_key));
  if (clash) throw nameTaken(clash.name);

  const now = isoOn(ctx.clock);
  try {
    await db.transaction().execute(async (trx) => {
      if (target && (await findItem(trx, target))?.status !== 'complete') {
        throw fail('NOT_FOUND', 'Folder not found'); // trashed since the checks above
      }
      for (const item of moving) {
        // Still listed (not deleted or trashed since the checks above)?
        const current = await findItem(trx, item.id);
        if (current?.status !== 'complete') throw fail('NOT_FOUND', 'Item not found');
        await updateItem(trx, item.id, { parent_id: target, parent_key: parentKey, updated_at: now });
      }
    });
  } catch (e) {
    if (isUniqueViolation(e))
      throw fail('NAME_TAKEN', 'An item with the same name arrived in that folder meanwhile');
    if (/FOREIGN KEY|foreign key/.test(String(e))) throw fail('NOT_FOUND', 'Folder not found');
    throw e;
  }
  return { moved: moving.length };
}

/** Levels a folder spans including itself (1 = no subfolders). */
async function subtreeDepth(db: Db, folderId: string): Promise<number> {
  const inside = await descendantsOf(db, folderId);
  if (inside.every((r) => r.type !== 'folder')) return 1;
  // Depth by walking the parent links of the folders found (bounded by MAX_FOLDER_DEPTH).
  const parents = new Map<string, string | null>();
  for (const r of inside)
    if (r.type === 'folder') parents.set(r.id, (await findItem(db, r.id))?.parent_id ?? null);
  let deepest = 1;
  for (const id of parents.keys()) {
    let depth = 1;
    let p: string | null | undefined = id;
    while (p && p !== folderId && depth <= MAX_FOLDER_DEPTH + 1) {
      p = parents.get(p);
      depth++;
    }
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

import { randomUUID } from 'node:crypto';
import { DEFAULT_CATEGORY, type FolderCreateBody, MAX_FOLDER_DEPTH } from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import { fail } from '../../platform/errors.ts';
import { isoOn } from '../../platform/time.ts';
import type { FilesContext } from './context.ts';
import { isUniqueViolation, nameKey, parentKeyOf } from './names.ts';
import {
  descendantsOf,
  fileTotals,
  findItem,
  findListedItem,
  type ItemRow,
  insertItem,
  listCategoryCounts,
  listChildren,
  listFilesByCategory,
  takenNameKeys,
  updateItem,
} from './repo.ts';
import type { FilesTable } from './tables.ts';
import { trashItem } from './trash/service.ts';

/** The rules of folders, listings, renames and deletes. Uploads are in upload.ts, downloads in download.ts. */

const notFound = (what: 'File' | 'Folder' | 'Item') => fail('NOT_FOUND', `${what} not found`);

export const nameTaken = (name: string) =>
  fail('NAME_TAKEN', `An item named "${name}" already exists in this folder`);

/** A listed (complete) folder, or 404. */
export async function requireFolder(db: Db, id: string): Promise<FilesTable> {
  const row = await findItem(db, id);
  if (row?.status !== 'complete' || row.type !== 'folder') throw notFound('Folder');
  return row;
}

/** A listed (complete) file or folder, or 404. */
export async function requireItem(db: Db, id: string): Promise<FilesTable> {
  const row = await findItem(db, id);
  if (row?.status !== 'complete') throw notFound('Item');
  return row;
}

/** A listed (complete) file, or 404 (also for folders: they have no bytes). */
export async function requireFile(db: Db, id: string): Promise<FilesTable> {
  const row = await findItem(db, id);
  if (row?.status !== 'complete' || row.type !== 'file') throw notFound('File');
  return row;
}

export async function listFolder(db: Db, folderId: string | undefined) {
  if (folderId) await requireFolder(db, folderId);
  const [items, stats] = await Promise.all([listChildren(db, parentKeyOf(folderId)), fileTotals(db)]);
  return { items, stats };
}

export async function searchFiles(db: Db, category: string | undefined) {
  const [items, stats] = await Promise.all([listFilesByCategory(db, category), fileTotals(db)]);
  return { items, stats };
}

export async function categories(db: Db) {
  return listCategoryCounts(db);
}

/** The folders from the root's child down to `folderId` (the client prepends ~/shared). */
export async function breadcrumbs(db: Db, folderId: string): Promise<{ id: string; name: string }[]> {
  const chain: { id: string; name: string }[] = [];
  let current: FilesTable | undefined = await requireFolder(db, folderId);
  while (current) {
    chain.unshift({ id: current.id, name: current.name });
    if (!current.parent_id || chain.length > MAX_FOLDER_DEPTH) break;
    current = await findItem(db, current.parent_id);
  }
  return chain;
}

export async function createFolder(
  ctx: Pick<FilesContext, 'db' | 'clock'>,
  ownerId: string,
  body: FolderCreateBody,
): Promise<ItemRow> {
  const { db } = ctx;
  const parentId = body.parentId ?? null;
  if (parentId) {
    await requireFolder(db, parentId);
    const depth = (await breadcrumbs(db, parentId)).length;
    if (depth >= MAX_FOLDER_DEPTH) {
      throw fail('TOO_DEEP', `Folders can be nested at most ${MAX_FOLDER_DEPTH} levels deep`);
    }
  }
  const now = isoOn(ctx.clock);
  const id = randomUUID();
  try {
    await insertItem(db, {
      id,
      parent_id: parentId,
      parent_key: parentKeyOf(parentId),
      type: 'folder',
      name: body.name,
      name_key: nameKey(body.name),
      category: DEFAULT_CATEGORY,
      size: 0,
      total_chunks: 0,
      sha256: null,
      status: 'complete',
      owner_id: ownerId,
      lease_expires_at: null,
      created_at: now,
      updated_at: now,
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken(body.name);
    // The parent was deleted between the check and the insert.
    if (/FOREIGN KEY|foreign key/.test(String(e))) throw notFound('Folder');
    throw e;
  }
  return (await findListedItem(db, id))!;
}

/**
 * Renames a file or folder. Another item with the same name (ignoring case) in the folder is a 409,
 * as in file managers; changing only the case of an item's own name is allowed.
 */
export async function renameItem(
  ctx: Pick<FilesContext, 'db' | 'clock'>,
  id: string,
  newName: string,
): Promise<ItemRow> {
  const { db } = ctx;
  const row = await requireItem(db, id);
  const key = nameKey(newName);
  if (row.name !== newName) {
    if (key !== row.name_key && (await takenNameKeys(db, row.parent_key, [key])).size > 0)
      throw nameTaken(newName);
    try {
      await updateItem(db, id, { name: newName, name_key: key, updated_at: isoOn(ctx.clock) });
    } catch (e) {
      if (isUniqueViolation(e)) throw nameTaken(newName);
      throw e;
    }
  }
  return (await findListedItem(db, id))!;
}

export async function categorizeFile(
  ctx: Pick<FilesContext, 'db' | 'clock'>,
  id: string,
  category: string,
): Promise<ItemRow> {
  const { db } = ctx;
  const row = await requireItem(db, id);
  if (row.type === 'folder') throw fail('NOT_A_FILE', 'Folders cannot be categorized; pick a file');
  await updateItem(db, id, { category, updated_at: isoOn(ctx.clock) });
  return (await findListedItem(db, id))!;
}

export type DeleteCounts = { deletedFiles: number; deletedFolders: number };

/** Moves a file to the trash (restorable for 30 days; trash/service.ts). */
export async function deleteFile(
  ctx: FilesContext,
  id: string,
  userId: string | null = null,
): Promise<DeleteCounts> {
  const row = await requireItem(ctx.db, id);
  if (row.type === 'folder') {
    throw fail('NOT_A_FILE', 'This is a folder: delete it with DELETE /api/folders/{id}');
  }
  return trashItem(ctx, id, userId);
}

/** What a folder holds, at any depth (the delete confirmation names it). */
export async function folderContents(db: Db, id: string) {
  await requireFolder(db, id);
  const inside = (await descendantsOf(db, id)).filter((r) => r.status === 'complete');
  const files = inside.filter((r) => r.type === 'file');
  return {
    files: files.length,
    folders: inside.length - files.length,
    bytes: files.reduce((sum, r) => sum + Number(r.size), 0),
  };
}

/** Moves a folder with everything listed inside it to the trash (trash/service.ts). */
export async function deleteFolder(
  ctx: FilesContext,
  id: string,
  userId: string | null = null,
): Promise<DeleteCounts> {
  await requireFolder(ctx.db, id);
  return trashItem(ctx, id, userId);
}

import type { SharedFolderFile } from '@guildhall/common';
import type { Db } from '../../../db/index.ts';
import type { FilesTable } from '../tables.ts';
import { findFolderFile, listFolderFiles } from './repo.ts';
import { shareNotFound } from './service.ts';

/**
 * Folder shares (issue 45, docs/files.md "Folder shares"): a share of a folder serves the files
 * directly inside it, read at each request, so files added later appear and trashed ones (status
 * `trashed`) leave. Subfolders and their files are not part of the share: a member shares a subfolder
 * with its own link.
 */

/** The complete files directly inside the folder, by name. */
export const listSharedFolderFiles = listFolderFiles;

/** One complete file directly inside the shared folder, or the share's 404 (nothing is revealed). */
export async function requireSharedFolderFile(db: Db, folderId: string, fileId: string): Promise<FilesTable> {
  const file = await findFolderFile(db, folderId, fileId);
  if (!file) throw shareNotFound();
  return file;
}

export function presentSharedFolderFile(file: FilesTable): SharedFolderFile {
  return { id: file.id, name: file.name, size: Number(file.size), updatedAt: file.updated_at };
}

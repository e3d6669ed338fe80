import { type FileShare, type SharedFileInfo, shareStateOf } from '@guildhall/common';
import type { FileSharesTable, FilesTable } from '../tables.ts';

/** Row → share (portal-tools §3); `url` is absolute, built from PUBLIC_URL or the request's origin. */
export function presentShare(row: FileSharesTable, baseUrl: string, now: number): FileShare {
  const share = {
    id: row.id,
    url: `${baseUrl}/shared/${row.token}`,
    token: row.token,
    accessLevel: row.access_level,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    downloadCount: Number(row.download_count),
    hasPassword: !!row.password_hash,
    title: row.title ?? null,
    note: row.note ?? null,
    maxDownloads: row.max_downloads == null ? null : Number(row.max_downloads),
    updatedAt: row.updated_at ?? null,
    notifyOnDownload: Number(row.notify_downloads ?? 0) === 1,
  };
  return { ...share, state: shareStateOf(share, now) };
}

/** The shared page's info; a folder's size is that of the files the page lists (`folderBytes`). */
export function presentSharedInfo(
  share: FileSharesTable,
  file: FilesTable,
  folderBytes?: number,
): SharedFileInfo {
  return {
    kind: file.type,
    name: file.name,
    size: file.type === 'folder' ? (folderBytes ?? 0) : Number(file.size),
    accessLevel: share.access_level,
    downloadCount: Number(share.download_count),
    createdAt: file.created_at,
    title: share.title ?? null,
    note: share.note ?? null,
    maxDownloads: share.max_downloads == null ? null : Number(share.max_downloads),
  };
}

import type { FileShare, SharedFileInfo } from '@guildhall/common';
import type { FileSharesTable, FilesTable } from '../tables.ts';

/** Row → share (portal-tools §3); `url` is absolute, built from PUBLIC_URL or the request's origin. */
export function presentShare(row: FileSharesTable, baseUrl: string): FileShare {
  return {
    id: row.id,
    url: `${baseUrl}/shared/${row.token}`,
    token: row.token,
    accessLevel: row.access_level,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    downloadCount: Number(row.download_count),
    hasPassword: !!row.password_hash,
  };
}

export function presentSharedInfo(share: FileSharesTable, file: FilesTable): SharedFileInfo {
  return {
    name: file.name,
    size: Number(file.size),
    accessLevel: share.access_level,
    downloadCount: Number(share.download_count),
    createdAt: file.created_at,
  };
}

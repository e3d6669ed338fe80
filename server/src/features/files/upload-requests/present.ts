import type { GuestUploadReceipt, UploadRequest, UploadRequestGuestInfo } from '@guildhall/common';
import type { FilesTable, UploadRequestsTable } from '../tables.ts';
import { requestStateOf, typesOf } from './service.ts';

/** Row → the owner's view of an upload link; `url` is the guest page, absolute. */
export function presentUploadRequest(
  row: UploadRequestsTable & { folder_name?: string | null },
  baseUrl: string,
  now: number,
): UploadRequest {
  return {
    id: row.id,
    token: row.token,
    url: `${baseUrl}/request/${row.token}`,
    folderId: row.folder_id,
    folderName: row.folder_name ?? null,
    title: row.title,
    note: row.note,
    maxTotalBytes: Number(row.max_total_bytes),
    maxFiles: Number(row.max_files),
    allowedTypes: typesOf(row),
    expiresAt: row.expires_at,
    hasPassword: !!row.password_hash,
    notify: Number(row.notify) === 1,
    createdAt: row.created_at,
    closedAt: row.closed_at,
    filesReceived: Number(row.files_received),
    bytesReceived: Number(row.bytes_received),
    state: requestStateOf(row, now),
  };
}

/** What a guest sees: the texts and the room left, never the folder, its name or its files. */
export function presentGuestInfo(
  row: UploadRequestsTable,
  ownerName: string,
  room: { bytes: number; files: number },
): UploadRequestGuestInfo {
  return {
    title: row.title,
    note: row.note,
    ownerName,
    maxTotalBytes: Number(row.max_total_bytes),
    maxFiles: Number(row.max_files),
    allowedTypes: typesOf(row),
    expiresAt: row.expires_at,
    bytesLeft: room.bytes,
    filesLeft: room.files,
  };
}

export function presentReceipt(file: FilesTable): GuestUploadReceipt {
  return {
    name: file.name,
    size: Number(file.size),
    sha256: file.sha256 ?? '',
    receivedAt: file.updated_at,
  };
}

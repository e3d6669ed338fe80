import {
  BreadcrumbsResponse,
  CategoriesResponse,
  DeleteResponse,
  DownloadTicketResponse,
  FileFindResponse,
  type FileItem,
  type FileShare,
  FilesLimitsResponse,
  FilesListResponse,
  FolderStatsResponse,
  ItemResponse,
  MoveResponse,
  type ShareAccessLevel,
  ShareResponse,
  SharesListResponse,
  type ShareUpdateBody,
  StorageUsageResponse,
  TrashListResponse,
  TrashPurgeResponse,
  TrashRestoreResponse,
  UploadStatusResponse,
} from '@guildhall/common';
import { apiFetch, getStoredToken } from '../../api/client.ts';

/** The calls of the Shared File System (portal-tools §7 Files); responses are parsed with the contract. */

const id = (value: string) => encodeURIComponent(value);

export async function fetchFolder(folderId: string | null) {
  const query = folderId ? `?folderId=${id(folderId)}` : '';
  return FilesListResponse.parse(await apiFetch(`/api/files${query}`));
}

export async function searchByCategory(category: string) {
  return FilesListResponse.parse(
    await apiFetch(`/api/files/search?category=${encodeURIComponent(category)}`),
  );
}

export async function fetchBreadcrumbs(folderId: string) {
  return BreadcrumbsResponse.parse(await apiFetch(`/api/folders/${id(folderId)}/breadcrumbs`)).data;
}

export async function fetchCategories() {
  return CategoriesResponse.parse(await apiFetch('/api/categories')).data;
}

export async function fetchLimits() {
  return FilesLimitsResponse.parse(await apiFetch('/api/files/limits')).data;
}

/** What the signed-in member's files use, and their quota (null: no limit). */
export async function fetchUsage() {
  return StorageUsageResponse.parse(await apiFetch('/api/files/usage')).data;
}

export async function createFolder(name: string, parentId: string | null): Promise<FileItem> {
  return ItemResponse.parse(await apiFetch('/api/folders', { method: 'POST', body: { name, parentId } }))
    .data;
}

export async function folderContents(folderId: string) {
  return FolderStatsResponse.parse(await apiFetch(`/api/folders/${id(folderId)}/contents`)).data;
}

export async function deleteItem(item: Pick<FileItem, 'id' | 'type'>) {
  const path = item.type === 'folder' ? `/api/folders/${id(item.id)}` : `/api/files/${id(item.id)}`;
  return DeleteResponse.parse(await apiFetch(path, { method: 'DELETE' })).data;
}

export async function renameItem(itemId: string, newName: string): Promise<FileItem> {
  const res = await apiFetch(`/api/files/${id(itemId)}/rename`, { method: 'PUT', body: { newName } });
  return ItemResponse.parse(res).data;
}

export async function categorizeFile(itemId: string, category: string): Promise<FileItem> {
  const res = await apiFetch(`/api/files/${id(itemId)}/categorize`, { method: 'PUT', body: { category } });
  return ItemResponse.parse(res).data;
}

/** A short-lived URL the browser's own download manager can fetch (no token in it). */
export async function downloadTicket(fileId: string) {
  const res = await apiFetch(`/api/files/${id(fileId)}/download-ticket`, { method: 'POST' });
  return DownloadTicketResponse.parse(res).data;
}

export async function uploadStatus(fileId: string) {
  return UploadStatusResponse.parse(await apiFetch(`/upload/status/${id(fileId)}`));
}

export async function completeUpload(body: {
  fileId: string;
  fileName: string;
  fileSize: number;
  totalChunks: number;
}) {
  return ItemResponse.parse(await apiFetch('/upload/complete', { method: 'POST', body })).data;
}

export async function createShare(
  fileId: string,
  accessLevel: ShareAccessLevel,
  expiresAt: string | null,
  password = '',
): Promise<FileShare> {
  const body = {
    accessLevel,
    ...(expiresAt ? { expiresAt } : {}),
    ...(password ? { password } : {}),
  };
  return ShareResponse.parse(await apiFetch(`/api/files/${id(fileId)}/share`, { method: 'POST', body })).data;
}

export async function fetchShares(fileId: string): Promise<FileShare[]> {
  return SharesListResponse.parse(await apiFetch(`/api/files/${id(fileId)}/shares`)).data;
}

/** Edits a share (issue 45): only the fields given change. */
export async function updateShare(shareId: string, body: ShareUpdateBody): Promise<FileShare> {
  return ShareResponse.parse(await apiFetch(`/api/files/shares/${id(shareId)}`, { method: 'PATCH', body }))
    .data;
}

export async function deleteShare(shareId: string): Promise<void> {
  await apiFetch(`/api/files/shares/${id(shareId)}`, { method: 'DELETE' });
}

// --- File manager (issue 30) ------------------------------------------------------------------------

/** An address the browser can load the file's preview from (<img>, <video>): a download ticket, no token in it. */
export async function previewUrl(fileId: string): Promise<string> {
  const { url } = await downloadTicket(fileId);
  const ticket = new URL(url, window.location.origin).searchParams.get('ticket') ?? '';
  return `/api/files/${id(fileId)}/preview?ticket=${encodeURIComponent(ticket)}`;
}

/** A thumbnail as an object URL (fetched with the bearer token), or null when the file has none. */
export async function fetchThumbnail(
  path: string,
  headers: Record<string, string> = {},
): Promise<string | null> {
  const token = getStoredToken();
  const res = await fetch(path, {
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  if (!res.ok) return null;
  return URL.createObjectURL(await res.blob());
}

export async function findItems(q: string) {
  return FileFindResponse.parse(await apiFetch(`/api/files/find?q=${encodeURIComponent(q)}`));
}

export async function moveItems(ids: string[], targetFolderId: string | null) {
  return MoveResponse.parse(
    await apiFetch('/api/files/move', { method: 'POST', body: { ids, targetFolderId } }),
  ).data;
}

/** A URL for the browser's download manager to fetch these items as one ZIP. */
export async function archiveTicket(ids: string[]) {
  return DownloadTicketResponse.parse(
    await apiFetch('/api/files/archive-ticket', { method: 'POST', body: { ids } }),
  ).data;
}

export async function fetchTrash() {
  return TrashListResponse.parse(await apiFetch('/api/trash'));
}

export async function restoreFromTrash(itemId: string) {
  return TrashRestoreResponse.parse(await apiFetch(`/api/trash/${id(itemId)}/restore`, { method: 'POST' }));
}

export async function purgeFromTrash(itemId: string) {
  return TrashPurgeResponse.parse(await apiFetch(`/api/trash/${id(itemId)}`, { method: 'DELETE' })).data;
}

export async function emptyTrash() {
  return TrashPurgeResponse.parse(await apiFetch('/api/trash', { method: 'DELETE' })).data;
}

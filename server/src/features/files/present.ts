import type { FileItem } from '@guildhall/common';
import { isThreadId } from '../../platform/blob-store/index.ts';
import type { ItemRow } from './repo.ts';

/** Row → API item (portal-tools §3). Owner and permission labels are derived by the client. */
export function presentItem(row: ItemRow): FileItem {
  const isFolder = row.type === 'folder';
  const item: FileItem = {
    id: row.id,
    name: row.name,
    type: row.type,
    size: isFolder ? 0 : Number(row.size),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    category: row.category,
    chunks: isFolder ? 0 : row.total_chunks,
    // Only a thread's id: while a Discord upload waits for its thread, the row holds the thread's name.
    threadId: row.thread_id && isThreadId(row.thread_id) ? row.thread_id : null,
    parentId: row.parent_id,
    uploadedBy: row.owner_id ? { id: row.owner_id, username: row.owner_username ?? 'unknown' } : null,
    sha256: row.sha256,
  };
  if (isFolder) item.itemCount = Number(row.item_count ?? 0);
  return item;
}

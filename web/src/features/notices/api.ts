import { NoticesListResponse } from '@guildhall/common';
import { apiFetch } from '../../api/client.ts';

export async function fetchNotices() {
  const res = NoticesListResponse.parse(await apiFetch('/api/notices'));
  return { notices: res.data, unread: res.unread };
}

/** Marks the listed notices read, or all of them. */
export async function markRead(ids?: string[]): Promise<void> {
  await apiFetch('/api/notices/read', { method: 'POST', body: ids ? { ids } : {} });
}

import { APPROVED_CACHE_MS, type PublicApprovedEntry, STORAGE_KEYS } from '@guildhall/common';
import { apiFetch } from '../api/client.ts';

type Cache = { at: number; users: PublicApprovedEntry[] };
let memory: Cache | null = null;

/**
 * The approved-users list, cached for 5 minutes (portal-core §9) with a forced refresh. A fallback
 * copy is kept in localStorage and served when the server cannot be reached.
 */
export async function getApprovedUsers(options: { force?: boolean } = {}): Promise<PublicApprovedEntry[]> {
  if (!options.force && memory && Date.now() - memory.at < APPROVED_CACHE_MS) return memory.users;
  try {
    const res = await apiFetch<{ data: PublicApprovedEntry[] }>('/api/users/public/approved');
    memory = { at: Date.now(), users: res.data };
    localStorage.setItem(STORAGE_KEYS.approvedUsers, JSON.stringify(res.data));
    return res.data;
  } catch (e) {
    const cached = readCachedApprovedUsers();
    if (cached) return cached;
    throw e;
  }
}

export function readCachedApprovedUsers(): PublicApprovedEntry[] | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEYS.approvedUsers);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return Array.isArray(parsed) ? (parsed as PublicApprovedEntry[]) : null;
  } catch {
    return null;
  }
}

/** Looks up an approved entry by id (or username) in the cached list. */
export function findApproved(
  users: PublicApprovedEntry[],
  idOrName: string,
): PublicApprovedEntry | undefined {
  return users.find((u) => u.discord_id === idOrName || u.username === idOrName);
}

export function clearApprovedCache(): void {
  memory = null;
  localStorage.removeItem(STORAGE_KEYS.approvedUsers);
}

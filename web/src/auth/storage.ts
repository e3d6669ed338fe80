import { type ServerUser, STORAGE_KEYS } from '@guildhall/common';

/** The persisted browser data of portal-core §3: authToken and authUser (JSON). */
export function readStoredAuth(): { token: string; user: ServerUser } | null {
  const token = localStorage.getItem(STORAGE_KEYS.authToken);
  const raw = localStorage.getItem(STORAGE_KEYS.authUser);
  if (!token || !raw) return null;
  try {
    const user = JSON.parse(raw) as ServerUser;
    return typeof user?.discord_id === 'string' ? { token, user } : null;
  } catch {
    return null;
  }
}

export function storeAuth(token: string, user: ServerUser): void {
  localStorage.setItem(STORAGE_KEYS.authToken, token);
  localStorage.setItem(STORAGE_KEYS.authUser, JSON.stringify(user));
}

export function storeUser(user: ServerUser): void {
  localStorage.setItem(STORAGE_KEYS.authUser, JSON.stringify(user));
}

export function clearStoredAuth(): void {
  localStorage.removeItem(STORAGE_KEYS.authToken);
  localStorage.removeItem(STORAGE_KEYS.authUser);
}

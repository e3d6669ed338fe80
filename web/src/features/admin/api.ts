import {
  AdminStorageResponse,
  type AuditEntry,
  AuditListResponse,
  type ClientUser,
  type DiscordRole,
  DiscordRolesResponse,
  MusicBotHolderResponse,
  RoleSyncResponse,
  type RoleSyncSettingsBody,
  type RoleSyncState,
  type ServerUserBody,
  StorageQuotaResponse,
  toClientUser,
  UserListResponse,
  UserResponse,
  type UserUpdateBody,
} from '@guildhall/common';
import { apiFetch } from '../../api/client.ts';

/** Calls of the admin panel (portal-core §7); responses are parsed with the shared contract. */

export async function fetchUsers(): Promise<ClientUser[]> {
  return UserListResponse.parse(await apiFetch('/api/users')).data.map(toClientUser);
}

export async function addUser(body: ServerUserBody): Promise<ClientUser> {
  return toClientUser(UserResponse.parse(await apiFetch('/api/users', { method: 'POST', body })).data);
}

export async function updateUser(id: string, body: UserUpdateBody): Promise<ClientUser> {
  const res = await apiFetch(`/api/users/${encodeURIComponent(id)}`, { method: 'PUT', body });
  return toClientUser(UserResponse.parse(res).data);
}

export async function removeUser(id: string): Promise<void> {
  await apiFetch(`/api/users/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** Which portal instance holds the Discord music bot (issue 42). */
export async function fetchMusicBotHolder() {
  return MusicBotHolderResponse.parse(await apiFetch('/api/music/bot')).data;
}

export const AUDIT_PANEL_SIZE = 20;

export async function fetchAudit(): Promise<AuditEntry[]> {
  return AuditListResponse.parse(await apiFetch(`/api/admin/audit?limit=${AUDIT_PANEL_SIZE}`)).data;
}

/** Every member's storage use and quota (issue 15). */
export async function fetchStorage() {
  return AdminStorageResponse.parse(await apiFetch('/api/admin/storage'));
}

/** Sets a member's quota in bytes, or null for the default (STORAGE_QUOTA_BYTES). */
export async function setStorageQuota(userId: string, quotaBytes: number | null) {
  const res = await apiFetch(`/api/admin/storage/${encodeURIComponent(userId)}`, {
    method: 'PUT',
    body: { quotaBytes },
  });
  return StorageQuotaResponse.parse(res).data;
}

/** Discord role sync (issue 43): settings, status, held changes. */
export async function fetchRoleSync(): Promise<RoleSyncState> {
  return RoleSyncResponse.parse(await apiFetch('/api/admin/role-sync')).data;
}

export async function saveRoleSync(body: RoleSyncSettingsBody): Promise<RoleSyncState> {
  return RoleSyncResponse.parse(await apiFetch('/api/admin/role-sync', { method: 'PUT', body })).data;
}

/** The server's roles as the bot sees them (names and colours). */
export async function fetchDiscordRoles(): Promise<DiscordRole[]> {
  return DiscordRolesResponse.parse(await apiFetch('/api/admin/role-sync/discord-roles')).data;
}

/** Asks the sync for a run now (Check now); the answer is the status before that run. */
export async function checkRoleSyncNow(): Promise<RoleSyncState> {
  return RoleSyncResponse.parse(await apiFetch('/api/admin/role-sync/check', { method: 'POST' })).data;
}

export async function decideHeld(decision: 'confirm' | 'discard'): Promise<RoleSyncState> {
  return RoleSyncResponse.parse(await apiFetch(`/api/admin/role-sync/held/${decision}`, { method: 'POST' }))
    .data;
}

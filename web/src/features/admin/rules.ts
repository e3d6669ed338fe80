import { type AccessLevel, type ClientUser, TEXTS } from '@guildhall/common';

/** The admin panel's client-side checks (portal-core §5); each returns the alert text or null. */

export function checkNewUser(approved: ClientUser[], input: { id: string; username: string }): string | null {
  const id = input.id.trim();
  const username = input.username.trim();
  if (!id || !username) return TEXTS.fillRequired;
  const lower = username.toLowerCase();
  if (approved.some((u) => u.id === id || u.username.toLowerCase() === lower)) return TEXTS.duplicateUser;
  return null;
}

export function checkEdit(input: { username: string }): string | null {
  return input.username.trim() ? null : TEXTS.usernameRequired;
}

export type UserStats = { total: number; admins: number; moderators: number; regular: number };

/**
 * The four stat cards, over the approved users: regular users are everyone below moderator. In setup
 * mode `actingAdminId` (the access-code identity) counts as the Admin it acts as, as its row's badge
 * says, so the cards never read "0 Admins" beside a row badged Admin.
 */
export function userStats(
  approved: { id: string; accessLevel: AccessLevel }[],
  actingAdminId: string | null = null,
): UserStats {
  const levelOf = (u: { id: string; accessLevel: AccessLevel }) =>
    u.id === actingAdminId ? 'admin' : u.accessLevel;
  const count = (level: AccessLevel) => approved.filter((u) => levelOf(u) === level).length;
  const admins = count('admin');
  const moderators = count('moderator');
  return { total: approved.length, admins, moderators, regular: approved.length - admins - moderators };
}

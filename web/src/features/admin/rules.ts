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

/** The four stat cards, over the approved users: regular users are everyone below moderator. */
export function userStats(approved: { accessLevel: AccessLevel }[]): UserStats {
  const count = (level: AccessLevel) => approved.filter((u) => u.accessLevel === level).length;
  const admins = count('admin');
  const moderators = count('moderator');
  return { total: approved.length, admins, moderators, regular: approved.length - admins - moderators };
}

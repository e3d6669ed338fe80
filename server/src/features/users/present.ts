import type { AccessLevel, PublicApprovedEntry, ServerUser } from '@guildhall/common';
import type { UsersTable } from './tables.ts';

/** Row → server shape (portal-core §3); empty optional fields are omitted. */
export function presentUser(row: UsersTable, level?: AccessLevel): ServerUser {
  const user: ServerUser = {
    discord_id: row.discord_id,
    username: row.username,
    access_level: level ?? row.access_level,
    is_approved: row.is_approved === 1,
    provider: row.provider,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  if (row.discriminator) user.discriminator = row.discriminator;
  if (row.avatar) user.avatar = row.avatar;
  if (row.email) user.email = row.email;
  if (row.global_name) user.global_name = row.global_name;
  if (row.notes) user.notes = row.notes;
  if (row.last_login) user.last_login = row.last_login;
  if (row.server_nick) user.server_nick = row.server_nick;
  if (row.server_avatar_url) user.server_avatar_url = row.server_avatar_url;
  return user;
}

export function presentApprovedEntry(row: UsersTable): PublicApprovedEntry {
  return {
    discord_id: row.discord_id,
    username: row.username,
    access_level: row.access_level,
  };
}

import { DEMO_USER_ID } from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import type { UsersTable } from '../users/index.ts';
import type { RoleSyncHeldTable, RoleSyncMembersTable, RoleSyncSettingsTable } from './tables.ts';

const SETTINGS_ID = 'default';

export async function findSettingsRow(db: Db): Promise<RoleSyncSettingsTable | undefined> {
  return db.selectFrom('role_sync_settings').selectAll().where('id', '=', SETTINGS_ID).executeTakeFirst();
}

/** Updates the one settings row, creating it (every setting at its env default) first when missing. */
export async function updateSettingsRow(
  db: Db,
  changes: Partial<Omit<RoleSyncSettingsTable, 'id'>>,
  now: string,
): Promise<void> {
  await db
    .insertInto('role_sync_settings')
    .values({
      id: SETTINGS_ID,
      enabled: null,
      guild_id: null,
      role_levels: '[]',
      deny_roles: '[]',
      no_role: null,
      demotion_brake: null,
      interval_seconds: null,
      paused: 0,
      guild_name: null,
      role_names: '{}',
      problem_code: null,
      problem_message: null,
      problem_since: null,
      last_run_at: null,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  await db
    .updateTable('role_sync_settings')
    .set({ ...changes, updated_at: now })
    .where('id', '=', SETTINGS_ID)
    .execute();
}

export type LinkedMember = { user: UsersTable; sync: RoleSyncMembersTable | null };

/** Every Discord account the portal knows (approved or pending), with what the sync knows of it. */
export async function listLinkedMembers(db: Db): Promise<LinkedMember[]> {
  const users = await db
    .selectFrom('users')
    .selectAll()
    .where('provider', '=', 'discord')
    .where('discord_id', '!=', DEMO_USER_ID)
    .orderBy('discord_id')
    .execute();
  const syncRows = await db.selectFrom('role_sync_members').selectAll().execute();
  const byId = new Map(syncRows.map((r) => [r.discord_id, r]));
  return users.map((user) => ({ user, sync: byId.get(user.discord_id) ?? null }));
}

export async function findMemberRow(db: Db, id: string): Promise<RoleSyncMembersTable | undefined> {
  return db.selectFrom('role_sync_members').selectAll().where('discord_id', '=', id).executeTakeFirst();
}

export async function upsertMemberRow(
  db: Db,
  id: string,
  changes: Partial<Omit<RoleSyncMembersTable, 'discord_id'>>,
): Promise<void> {
  await db
    .insertInto('role_sync_members')
    .values({
      discord_id: id,
      pinned: 0,
      roles: null,
      in_guild: null,
      level_role_id: null,
      revoked_by_sync: 0,
      prior_level: null,
      checked_at: null,
      nick: null,
      avatar: null,
      ...changes,
    })
    .onConflict((oc) => oc.column('discord_id').doUpdateSet(changes))
    .execute();
}

export async function listPinned(db: Db): Promise<{ discord_id: string; username: string }[]> {
  return db
    .selectFrom('role_sync_members')
    .innerJoin('users', 'users.discord_id', 'role_sync_members.discord_id')
    .select(['users.discord_id', 'users.username'])
    .where('role_sync_members.pinned', '=', 1)
    .orderBy('users.username')
    .execute();
}

export type HeldRow = RoleSyncHeldTable & { username: string };

export async function listHeld(db: Db): Promise<HeldRow[]> {
  return db
    .selectFrom('role_sync_held')
    .innerJoin('users', 'users.discord_id', 'role_sync_held.discord_id')
    .selectAll('role_sync_held')
    .select('users.username')
    .orderBy('users.username')
    .execute();
}

export async function upsertHeld(db: Db, row: RoleSyncHeldTable): Promise<void> {
  const { discord_id: _id, ...changes } = row;
  await db
    .insertInto('role_sync_held')
    .values(row)
    .onConflict((oc) => oc.column('discord_id').doUpdateSet(changes))
    .execute();
}

export async function deleteHeld(db: Db, id: string): Promise<void> {
  await db.deleteFrom('role_sync_held').where('discord_id', '=', id).execute();
}

export async function clearHeld(db: Db): Promise<void> {
  await db.deleteFrom('role_sync_held').execute();
}

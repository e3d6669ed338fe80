import { type AccessLevel, DEMO_USER_ID } from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import type { UsersTable } from './tables.ts';

export async function findUserById(db: Db, discordId: string): Promise<UsersTable | undefined> {
  return db.selectFrom('users').selectAll().where('discord_id', '=', discordId).executeTakeFirst();
}

export async function listApprovedUsers(db: Db): Promise<UsersTable[]> {
  return db.selectFrom('users').selectAll().where('is_approved', '=', 1).orderBy('username').execute();
}

export type DiscordProfile = {
  id: string;
  username: string;
  discriminator: string | null;
  avatar: string | null;
  email: string | null;
  global_name: string | null;
};

/**
 * Records a Discord sign-in: refreshes the profile of a known user, or inserts an unknown one as
 * pending (not approved, viewer) so an admin can approve them later.
 */
export async function upsertDiscordProfile(db: Db, p: DiscordProfile, now: string): Promise<UsersTable> {
  const profile = {
    username: p.username,
    discriminator: p.discriminator,
    avatar: p.avatar,
    email: p.email,
    global_name: p.global_name,
  };
  await db
    .insertInto('users')
    .values({
      discord_id: p.id,
      ...profile,
      notes: null,
      access_level: 'viewer',
      is_approved: 0,
      provider: 'discord',
      created_at: now,
      updated_at: now,
      last_login: null,
    })
    .onConflict((oc) => oc.column('discord_id').doUpdateSet({ ...profile, updated_at: now }))
    .execute();
  const row = await findUserById(db, p.id);
  if (!row) throw new Error(`user ${p.id} vanished after upsert`);
  return row;
}

export async function touchLastLogin(db: Db, discordId: string, now: string): Promise<void> {
  await db.updateTable('users').set({ last_login: now }).where('discord_id', '=', discordId).execute();
}

/** Inserts a user row if it does not exist yet; leaves an existing row untouched. */
export async function insertUserIfMissing(
  db: Db,
  row: Pick<UsersTable, 'discord_id' | 'username' | 'access_level' | 'is_approved' | 'provider'>,
  now: string,
): Promise<void> {
  await db
    .insertInto('users')
    .values({
      ...row,
      discriminator: null,
      avatar: null,
      email: null,
      global_name: null,
      notes: null,
      created_at: now,
      updated_at: now,
      last_login: null,
    })
    .onConflict((oc) => oc.column('discord_id').doNothing())
    .execute();
}

export async function setLevelAndApproval(
  db: Db,
  discordId: string,
  accessLevel: AccessLevel,
  isApproved: boolean,
  now: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ access_level: accessLevel, is_approved: isApproved ? 1 : 0, updated_at: now })
    .where('discord_id', '=', discordId)
    .execute();
}

/** Every user, approved or pending, by username (the admin list). */
export async function listAllUsers(db: Db): Promise<UsersTable[]> {
  return db.selectFrom('users').selectAll().orderBy('username').orderBy('discord_id').execute();
}

/** The user whose username equals `username` ignoring case, if any (usernames are unique that way). */
export async function findUserByUsername(db: Db, username: string): Promise<UsersTable | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
    .executeTakeFirst();
}

export async function insertUser(db: Db, row: UsersTable): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export type UserChanges = Partial<Omit<UsersTable, 'discord_id' | 'created_at'>>;

export async function updateUser(db: Db, discordId: string, changes: UserChanges): Promise<void> {
  await db.updateTable('users').set(changes).where('discord_id', '=', discordId).execute();
}

/**
 * Forgets every member's face in the community's Discord server (issue 43): the role sync is off, or looks
 * at another server now. Not an admin change: `updated_at` stays.
 */
export async function clearServerFaces(db: Db): Promise<number> {
  const r = await db
    .updateTable('users')
    .set({ server_nick: null, server_avatar_url: null })
    .where((eb) => eb.or([eb('server_nick', 'is not', null), eb('server_avatar_url', 'is not', null)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function deleteUser(db: Db, discordId: string): Promise<void> {
  await db.deleteFrom('users').where('discord_id', '=', discordId).execute();
}

/** Approved admins other than the access-code identity: the people who can run the community. */
export async function countRealAdmins(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('access_level', '=', 'admin')
    .where('is_approved', '=', 1)
    .where('discord_id', '!=', DEMO_USER_ID)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

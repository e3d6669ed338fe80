import type { Db } from '../db/index.ts';
import type { UsersTable } from '../db/schema.ts';
import { createSession } from '../platform/sessions.ts';
import { wallNowIso } from '../platform/time.ts';

export type UserOverrides = Partial<UsersTable>;

let counter = 0;

/** A random Discord-like snowflake (18 digits). */
export function snowflake(): string {
  counter += 1;
  return `${100000000000000000n + BigInt(Date.now() % 1e9) * 1000n + BigInt(counter)}`;
}

/** Inserts a user row: approved `user` level unless overridden. */
export async function buildUser(db: Db, overrides: UserOverrides = {}): Promise<UsersTable> {
  const now = wallNowIso();
  const row: UsersTable = {
    discord_id: snowflake(),
    username: `user${counter}`,
    discriminator: '0',
    avatar: null,
    email: null,
    global_name: null,
    notes: null,
    access_level: 'user',
    is_approved: 1,
    provider: 'discord',
    created_at: now,
    updated_at: now,
    last_login: null,
    server_nick: null,
    server_avatar_url: null,
    ...overrides,
  };
  await db.insertInto('users').values(row).execute();
  return row;
}

/** A user (approved `user` unless overridden) with a live session: what a signed-in test caller needs. */
export async function buildSignedInUser(
  db: Db,
  overrides: UserOverrides = {},
): Promise<{ token: string; userId: string }> {
  const row = await buildUser(db, overrides);
  return { token: await createSession(db, row.discord_id), userId: row.discord_id };
}

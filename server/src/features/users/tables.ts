import type { AccessLevel, Provider } from '@guildhall/common';

/**
 * The users table (portal-core §3); joined into `Database` in db/schema.ts. Booleans are integers
 * (0/1) and timestamps ISO-8601 text so the same queries run on SQLite and PostgreSQL.
 */
export type UsersTable = {
  discord_id: string;
  username: string;
  discriminator: string | null;
  avatar: string | null;
  email: string | null;
  global_name: string | null;
  notes: string | null;
  access_level: AccessLevel;
  is_approved: number;
  provider: Provider;
  created_at: string;
  updated_at: string;
  last_login: string | null;
};

export type UsersTables = { users: UsersTable };

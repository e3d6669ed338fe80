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
  /** The member's nickname in the community's Discord server (issue 43; kept by the role sync while it is on). */
  server_nick: string | null;
  /** Their server avatar's CDN URL (issue 43), likewise. */
  server_avatar_url: string | null;
};

export type UsersTables = { users: UsersTable };

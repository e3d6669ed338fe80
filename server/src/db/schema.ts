import type { Generated } from 'kysely';
import type { AdminTables } from '../features/admin/tables.ts';
import type { FilesTables } from '../features/files/tables.ts';
import type { TicTacToeTables } from '../features/games/tictactoe/tables.ts';
import type { MusicTables } from '../features/music/tables.ts';

/**
 * Table types. Booleans are stored as integers (0/1) and timestamps as ISO-8601 text so the same
 * migrations and queries run on SQLite and PostgreSQL.
 */
export type UsersTable = {
  discord_id: string;
  username: string;
  discriminator: string | null;
  avatar: string | null;
  email: string | null;
  global_name: string | null;
  notes: string | null;
  access_level: string;
  is_approved: number;
  provider: string;
  created_at: string;
  updated_at: string;
  last_login: string | null;
};

export type SessionsTable = {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  last_used_at: string;
  revoked_at: string | null;
};

export type OAuthStatesTable = {
  state_hash: string;
  code_verifier: string;
  expires_at: string;
};

export type CoreTables = {
  users: UsersTable;
  sessions: SessionsTable;
  oauth_states: OAuthStatesTable;
};

// Feature tables join here, one line per feature (keeps features' own types in their folders).
export type Database = CoreTables & AdminTables & FilesTables & TicTacToeTables & MusicTables;

export type { Generated };

import type { Generated } from 'kysely';
import type { AdminTables } from '../features/admin/tables.ts';
import type { AuthTables } from '../features/auth/tables.ts';
import type { DiscordNotesTables } from '../features/discord-notes/tables.ts';
import type { FilesTables } from '../features/files/tables.ts';
import type { PictionaryTables } from '../features/games/pictionary/tables.ts';
import type { TicTacToeTables } from '../features/games/tictactoe/tables.ts';
import type { MusicTables } from '../features/music/tables.ts';
import type { NoticesTables } from '../features/notices/tables.ts';
import type { OsintTables } from '../features/osint/tables.ts';
import type { RoleSyncTables } from '../features/roles/tables.ts';
import type { UsersTables } from '../features/users/tables.ts';

/** The users table type lives with its feature; the platform's sessions join it. */
export type { UsersTable } from '../features/users/tables.ts';

/**
 * Table types. Booleans are stored as integers (0/1) and timestamps as ISO-8601 text so the same
 * migrations and queries run on SQLite and PostgreSQL.
 */
export type SessionsTable = {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  last_used_at: string;
  revoked_at: string | null;
};

/** Personal API tokens (migration 081): only the SHA-256 is stored; `scopes` space-separated. */
export type ApiTokensTable = {
  id: string;
  user_id: string;
  token_hash: string;
  name: string;
  hint: string;
  scopes: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};

/** Instance-wide values every server instance shares (e.g. `access_code`). */
export type SettingsTable = { key: string; value: string };

export type CoreTables = {
  settings: SettingsTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
};

// Feature tables join here, one line per feature (keeps features' own types in their folders).
export type Database = CoreTables &
  UsersTables &
  AuthTables &
  AdminTables &
  FilesTables &
  TicTacToeTables &
  PictionaryTables &
  MusicTables &
  OsintTables &
  RoleSyncTables &
  DiscordNotesTables &
  NoticesTables;

export type { Generated };

import type { AccessLevel } from '@guildhall/common';

/** The admin's role-sync settings: one row (`id = 'default'`); a null column means "the env default". */
export type RoleSyncSettingsTable = {
  id: string;
  enabled: number | null;
  guild_id: string | null;
  /** JSON `[{ roleId, level }]`. */
  role_levels: string;
  /** JSON `[roleId]`. */
  deny_roles: string;
  no_role: string | null;
  demotion_brake: number | null;
  interval_seconds: number | null;
  paused: number;
  guild_name: string | null;
  /** JSON `{ [roleId]: { name, color } }`: the names the audit and the settings page show. */
  role_names: string;
  problem_code: string | null;
  problem_message: string | null;
  problem_since: string | null;
  last_run_at: string | null;
  updated_at: string;
};

/** What the sync knows of one linked member. */
export type RoleSyncMembersTable = {
  discord_id: string;
  pinned: number;
  roles: string | null;
  in_guild: number | null;
  level_role_id: string | null;
  revoked_by_sync: number;
  prior_level: AccessLevel | null;
  checked_at: string | null;
  /** The member's server nickname and server avatar hash at the last look (null: none, or not in the server). */
  nick: string | null;
  avatar: string | null;
};

/** A demotion the brake held back, waiting for an admin. */
export type RoleSyncHeldTable = {
  discord_id: string;
  from_level: AccessLevel;
  from_approved: number;
  to_level: AccessLevel;
  to_approved: number;
  level_role_id: string | null;
  revoked_by_sync: number;
  reason: string;
  held_at: string;
};

export type RoleSyncTables = {
  role_sync_settings: RoleSyncSettingsTable;
  role_sync_members: RoleSyncMembersTable;
  role_sync_held: RoleSyncHeldTable;
};

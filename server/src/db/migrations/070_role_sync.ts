import type { Kysely } from 'kysely';

/**
 * Discord role sync (issue 43): the admin's settings (one row; a null column falls back to its env
 * default), each linked member's last known roles and pin, and the changes the demotion brake holds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('role_sync_settings')
    .addColumn('id', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('enabled', 'integer')
    .addColumn('guild_id', 'varchar(32)')
    // JSON: [{ roleId, level }] and [roleId]
    .addColumn('role_levels', 'text', (c) => c.notNull())
    .addColumn('deny_roles', 'text', (c) => c.notNull())
    .addColumn('no_role', 'varchar(16)')
    .addColumn('demotion_brake', 'integer')
    .addColumn('interval_seconds', 'integer')
    .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
    // What the bot last saw of the server: its name and its roles' names and colours (JSON).
    .addColumn('guild_name', 'varchar(128)')
    .addColumn('role_names', 'text', (c) => c.notNull())
    .addColumn('problem_code', 'varchar(32)')
    .addColumn('problem_message', 'text')
    .addColumn('problem_since', 'varchar(32)')
    .addColumn('last_run_at', 'varchar(32)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('role_sync_members')
    .addColumn('discord_id', 'varchar(32)', (c) =>
      c.primaryKey().references('users.discord_id').onDelete('cascade'),
    )
    .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON array of role ids at the last successful look; null until the member was first looked up.
    .addColumn('roles', 'text')
    .addColumn('in_guild', 'integer')
    // The mapped role that gave the current level (null when no role did).
    .addColumn('level_role_id', 'varchar(32)')
    // 1 when the sync itself took access away (left the server, deny role, refused): coming back restores it.
    .addColumn('revoked_by_sync', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('prior_level', 'varchar(16)')
    .addColumn('checked_at', 'varchar(32)')
    .execute();

  await db.schema
    .createTable('role_sync_held')
    .addColumn('discord_id', 'varchar(32)', (c) =>
      c.primaryKey().references('users.discord_id').onDelete('cascade'),
    )
    .addColumn('from_level', 'varchar(16)', (c) => c.notNull())
    .addColumn('from_approved', 'integer', (c) => c.notNull())
    .addColumn('to_level', 'varchar(16)', (c) => c.notNull())
    .addColumn('to_approved', 'integer', (c) => c.notNull())
    .addColumn('level_role_id', 'varchar(32)')
    .addColumn('revoked_by_sync', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('held_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('role_sync_held').execute();
  await db.schema.dropTable('role_sync_members').execute();
  await db.schema.dropTable('role_sync_settings').execute();
}

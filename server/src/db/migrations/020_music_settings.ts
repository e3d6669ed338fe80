import type { Kysely } from 'kysely';

/**
 * Per-server music settings that outlive a session and a restart (issue 27): volume (0–200 %), loudness
 * normalisation (on by default) and loop mode.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('music_guild_settings')
    .addColumn('guild_id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('volume', 'integer', (c) => c.notNull().defaultTo(100))
    .addColumn('normalize', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('loop', 'varchar(8)', (c) => c.notNull().defaultTo('off'))
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  // Listing a member's playlists on a server (the per-member cap counts them).
  await db.schema
    .createIndex('music_playlists_creator')
    .on('music_playlists')
    .columns(['guild_id', 'created_by'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('music_playlists_creator').execute();
  await db.schema.dropTable('music_guild_settings').execute();
}

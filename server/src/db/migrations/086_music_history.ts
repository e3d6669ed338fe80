import type { Kysely } from 'kysely';

/**
 * What played on each server (issue 48): the last 200 songs per server, with who asked for them and when
 * they started; the History tab lists and searches them, and autoplay never picks one of the last 50.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('music_history')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('guild_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('platform', 'varchar(16)', (c) => c.notNull())
    .addColumn('song_key', 'varchar(200)', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('uploader', 'text', (c) => c.notNull())
    .addColumn('duration', 'integer', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('thumbnail', 'text')
    .addColumn('requester_id', 'varchar(32)')
    .addColumn('requester_name', 'text', (c) => c.notNull())
    .addColumn('requester_avatar', 'text')
    .addColumn('played_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('music_history_guild_played')
    .on('music_history')
    .columns(['guild_id', 'played_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('music_history').execute();
}

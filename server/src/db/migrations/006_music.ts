import type { Kysely } from 'kysely';

/**
 * Music playlists, per guild. A song appears once per playlist (the unique index makes "Song already
 * added to this playlist!" race-free); songs keep their order in `position`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('music_playlists')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('guild_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'varchar(64)', (c) =>
      c.notNull().references('users.discord_id').onDelete('cascade'),
    )
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('music_playlists_guild')
    .on('music_playlists')
    .columns(['guild_id', 'name'])
    .execute();

  await db.schema
    .createTable('music_playlist_songs')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('playlist_id', 'varchar(36)', (c) =>
      c.notNull().references('music_playlists.id').onDelete('cascade'),
    )
    .addColumn('song_key', 'varchar(200)', (c) => c.notNull())
    .addColumn('platform', 'varchar(16)', (c) => c.notNull())
    .addColumn('title', 'varchar(400)', (c) => c.notNull())
    .addColumn('uploader', 'varchar(200)', (c) => c.notNull())
    .addColumn('duration', 'integer', (c) => c.notNull())
    .addColumn('url', 'varchar(2000)', (c) => c.notNull())
    .addColumn('thumbnail', 'varchar(2000)')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('added_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('music_playlist_songs_unique')
    .on('music_playlist_songs')
    .columns(['playlist_id', 'platform', 'song_key'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('music_playlist_songs').execute();
  await db.schema.dropTable('music_playlists').execute();
}

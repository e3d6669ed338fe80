import type { Kysely } from 'kysely';

/**
 * One Discord bot for the whole deployment (issue 42): the lease that decides which instance holds the
 * bot (a row per lease name, with a fencing epoch that grows with every new holder), and each server's
 * playback (queue, song, position, effects, equalizer, voice channel), so a new holder — or the one
 * instance after a restart — resumes where the music was.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('music_bot_lease')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(200)', (c) => c.notNull())
    .addColumn('epoch', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('acquired_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('music_guild_state')
    .addColumn('guild_id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('epoch', 'integer', (c) => c.notNull())
    .addColumn('channel_id', 'varchar(32)')
    .addColumn('channel_name', 'text')
    .addColumn('current_song', 'text')
    .addColumn('queue', 'text', (c) => c.notNull())
    .addColumn('history', 'text', (c) => c.notNull())
    .addColumn('effects', 'text', (c) => c.notNull())
    .addColumn('eq', 'text', (c) => c.notNull())
    .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('position', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('music_guild_state').execute();
  await db.schema.dropTable('music_bot_lease').execute();
}

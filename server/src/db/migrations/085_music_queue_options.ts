import type { Kysely } from 'kysely';

/**
 * A server's queue options (issue 48), beside its volume, normalisation and loop: fair queue (songs taken
 * round-robin by requester) and no duplicates (a song already playing or queued is refused). Both off.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('music_guild_settings')
    .addColumn('fair_queue', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('music_guild_settings')
    .addColumn('no_duplicates', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('music_guild_settings').dropColumn('no_duplicates').execute();
  await db.schema.alterTable('music_guild_settings').dropColumn('fair_queue').execute();
}

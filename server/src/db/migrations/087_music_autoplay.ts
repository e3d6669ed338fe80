import type { Kysely } from 'kysely';

/** A server's autoplay option (issue 48): a related song plays when the queue ends. Off by default. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('music_guild_settings')
    .addColumn('autoplay', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('music_guild_settings').dropColumn('autoplay').execute();
}

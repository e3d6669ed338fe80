import type { Kysely } from 'kysely';

/**
 * Channel notes (issue 44): notes wait here until the instance that holds the Discord bot posts them, so a
 * share made on any instance is noted once, by the bot. The settings are one row of `settings`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('discord_notes_outbox')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('discord_notes_outbox_created')
    .on('discord_notes_outbox')
    .column('created_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('discord_notes_outbox').execute();
}

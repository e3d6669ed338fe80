import type { Kysely } from 'kysely';

/** Download tickets remember the session that asked for them, so signing out ends them at once. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('download_tickets').addColumn('session_hash', 'varchar(64)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('download_tickets').dropColumn('session_hash').execute();
}

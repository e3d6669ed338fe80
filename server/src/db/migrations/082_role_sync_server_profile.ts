import type { Kysely } from 'kysely';

/**
 * Role sync (issue 43): each member's server nickname and server avatar hash, as the bot last saw them
 * (the portal shows them where the member has one).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('role_sync_members').addColumn('nick', 'varchar(64)').execute();
  await db.schema.alterTable('role_sync_members').addColumn('avatar', 'varchar(64)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('role_sync_members').dropColumn('avatar').execute();
  await db.schema.alterTable('role_sync_members').dropColumn('nick').execute();
}

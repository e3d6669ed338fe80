import type { Kysely } from 'kysely';

/**
 * Issue 43: the member's face in the community's Discord server (server nickname, server avatar URL), kept
 * on the users row by the role sync while it is on, so every list that already reads the row (navigation,
 * admin lists, game players, song requesters) can show it. Null: none, or the sync is off.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('server_nick', 'varchar(64)').execute();
  await db.schema.alterTable('users').addColumn('server_avatar_url', 'varchar(256)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('server_avatar_url').execute();
  await db.schema.alterTable('users').dropColumn('server_nick').execute();
}

import type { Kysely } from 'kysely';

/**
 * Editable shares (issue 45): a title and note shown on the shared page, a download limit, when the
 * share was last edited, and the downloads of a limited link begun per client, so a Range continuation
 * of one download does not count again (docs/files.md, "Download limits").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('file_shares').addColumn('title', 'varchar(400)').execute();
  await db.schema.alterTable('file_shares').addColumn('note', 'text').execute();
  await db.schema.alterTable('file_shares').addColumn('max_downloads', 'integer').execute();
  await db.schema.alterTable('file_shares').addColumn('updated_at', 'varchar(32)').execute();
  await db.schema
    .createTable('file_share_claims')
    .addColumn('share_id', 'varchar(64)', (c) => c.notNull().references('file_shares.id').onDelete('cascade'))
    // `ticket:<sha256>` or `addr:<client address key>`
    .addColumn('claim_key', 'varchar(160)', (c) => c.notNull())
    .addColumn('claimed_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('file_share_claims_pk', ['share_id', 'claim_key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('file_share_claims').execute();
  await db.schema.alterTable('file_shares').dropColumn('updated_at').execute();
  await db.schema.alterTable('file_shares').dropColumn('max_downloads').execute();
  await db.schema.alterTable('file_shares').dropColumn('note').execute();
  await db.schema.alterTable('file_shares').dropColumn('title').execute();
}

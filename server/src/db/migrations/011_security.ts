import type { Kysely } from 'kysely';

/** Per-member storage quotas set by admins (issue 15); a member without a row has the default (STORAGE_QUOTA_BYTES). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('storage_quotas')
    .addColumn('user_id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('quota_bytes', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('storage_quotas').execute();
}

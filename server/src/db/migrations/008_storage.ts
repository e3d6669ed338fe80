import type { Kysely } from 'kysely';

/**
 * Storage beyond one disk. `files.thread_id`: the Discord thread holding a file's chunks (the spec's
 * threadId). `files.upload_hash_state`: a resumable upload's running SHA-256. `storage_copies`: blobs written to a destination store by `storage migrate` but not yet
 * switched to; a rerun after a kill deletes them instead of leaking or duplicating them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('files').addColumn('thread_id', 'varchar(32)').execute();
  await db.schema.alterTable('files').addColumn('upload_hash_state', 'text').execute();
  await db.schema
    .createTable('storage_copies')
    .addColumn('blob_id', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('file_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('storage_copies').execute();
  await db.schema.alterTable('files').dropColumn('upload_hash_state').execute();
  await db.schema.alterTable('files').dropColumn('thread_id').execute();
}

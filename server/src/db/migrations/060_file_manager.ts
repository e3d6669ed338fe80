import type { Kysely } from 'kysely';

/**
 * The file manager (issue 30): the trash (items keep their rows with status `trashed` until purged),
 * cached thumbnails, share passwords and tickets for ZIP downloads of a selection.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('files').addColumn('deleted_at', 'varchar(32)').execute();
  await db.schema.alterTable('files').addColumn('deleted_by', 'varchar(64)').execute();
  // The item the member deleted: it and everything that was inside it share this id, so a restore
  // brings back exactly what one delete removed.
  await db.schema.alterTable('files').addColumn('trash_root_id', 'varchar(64)').execute();
  await db.schema.createIndex('files_trash').on('files').columns(['status', 'trash_root_id']).execute();

  await db.schema
    .createTable('file_thumbnails')
    .addColumn('file_id', 'varchar(64)', (c) => c.primaryKey().references('files.id').onDelete('cascade'))
    // ready: `data` holds the WebP; none: the file has no picture to show (kept so it is not retried).
    .addColumn('status', 'varchar(8)', (c) => c.notNull())
    // Base64 of a WebP of at most 320×320 (a few KB): portable text on SQLite and PostgreSQL, and in the
    // database every instance reads, whatever store holds the file.
    .addColumn('data', 'text')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('file_shares').addColumn('password_hash', 'varchar(256)').execute();

  await db.schema
    .createTable('archive_tickets')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    // JSON array of the selected item ids.
    .addColumn('item_ids', 'text', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)')
    .addColumn('session_hash', 'varchar(64)')
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('archive_tickets').execute();
  await db.schema.alterTable('file_shares').dropColumn('password_hash').execute();
  await db.schema.dropTable('file_thumbnails').execute();
  await db.schema.dropIndex('files_trash').execute();
  await db.schema.alterTable('files').dropColumn('trash_root_id').execute();
  await db.schema.alterTable('files').dropColumn('deleted_by').execute();
  await db.schema.alterTable('files').dropColumn('deleted_at').execute();
}

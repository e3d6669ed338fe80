import { type Kysely, sql } from 'kysely';

/**
 * Shared file system: items (files and folders), the chunks of each file, blobs waiting to be deleted
 * from the store, share links and short-lived download tickets.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('files')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('parent_id', 'varchar(64)', (c) => c.references('files.id').onDelete('cascade'))
    // parent_id or '' at the root: NULLs are distinct in unique indexes, so the root needs a real value.
    .addColumn('parent_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(8)', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // NFC + lower case: the duplicate check is case-insensitive, as on macOS and Windows.
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('category', 'varchar(256)', (c) => c.notNull().defaultTo('uncategorized'))
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('total_chunks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sha256', 'varchar(64)')
    // uploading → stored (all bytes kept, waiting for /upload/complete) → complete (listed).
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('owner_id', 'varchar(64)', (c) => c.references('users.discord_id').onDelete('set null'))
    .addColumn('lease_expires_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('files_unique_name')
    .on('files')
    .columns(['parent_key', 'name_key'])
    .unique()
    .where(sql.ref('status'), '=', sql.lit('complete'))
    .execute();
  await db.schema.createIndex('files_parent').on('files').columns(['parent_key', 'status']).execute();
  await db.schema.createIndex('files_category').on('files').columns(['category', 'status']).execute();
  await db.schema
    .createIndex('files_status_lease')
    .on('files')
    .columns(['status', 'lease_expires_at'])
    .execute();

  await db.schema
    .createTable('file_chunks')
    .addColumn('file_id', 'varchar(64)', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('blob_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('file_chunks_pk', ['file_id', 'idx'])
    .execute();
  await db.schema.createIndex('file_chunks_blob').on('file_chunks').column('blob_id').execute();

  await db.schema
    .createTable('blob_garbage')
    .addColumn('blob_id', 'varchar(256)', (c) => c.primaryKey())
    .addColumn('queued_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('file_shares')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('token', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('file_id', 'varchar(64)', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('access_level', 'varchar(16)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(64)', (c) => c.references('users.discord_id').onDelete('set null'))
    .addColumn('download_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('revoked_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('file_shares_file').on('file_shares').column('file_id').execute();

  await db.schema
    .createTable('download_tickets')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('file_id', 'varchar(64)', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('share_id', 'varchar(64)', (c) => c.references('file_shares.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.references('users.discord_id').onDelete('cascade'))
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('download_tickets_expiry')
    .on('download_tickets')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('download_tickets').execute();
  await db.schema.dropTable('file_shares').execute();
  await db.schema.dropTable('blob_garbage').execute();
  await db.schema.dropTable('file_chunks').execute();
  await db.schema.dropTable('files').execute();
}

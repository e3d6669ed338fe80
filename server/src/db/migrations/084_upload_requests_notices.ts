import type { Kysely } from 'kysely';

/**
 * Upload requests and notices (issue 45). An upload request is a member's link into one of their
 * folders with limits; each guest upload's row names its request (files.upload_request_id) so the
 * request's limits count uploads under way, and the request keeps what it has received. Notices are
 * kept per member (30 days) with the state of their Discord direct message; a share can ask for them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('upload_requests')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('token', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('owner_id', 'varchar(64)', (c) =>
      c.notNull().references('users.discord_id').onDelete('cascade'),
    )
    .addColumn('folder_id', 'varchar(64)', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('title', 'varchar(400)')
    .addColumn('note', 'text')
    .addColumn('max_total_bytes', 'bigint', (c) => c.notNull())
    .addColumn('max_files', 'integer', (c) => c.notNull())
    // Space-separated extensions and MIME patterns; '' = any type.
    .addColumn('allowed_types', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(256)')
    .addColumn('notify', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('closed_at', 'varchar(32)')
    .addColumn('files_received', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_received', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('upload_requests_owner').on('upload_requests').column('owner_id').execute();
  await db.schema.alterTable('files').addColumn('upload_request_id', 'varchar(64)').execute();
  await db.schema.createIndex('files_upload_request').on('files').column('upload_request_id').execute();
  await db.schema
    .alterTable('file_shares')
    .addColumn('notify_downloads', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('notices')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.notNull().references('users.discord_id').onDelete('cascade'),
    )
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('text', 'varchar(1200)', (c) => c.notNull())
    .addColumn('link', 'varchar(400)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('read_at', 'varchar(32)')
    // none | pending | sending | sent | failed | skipped
    .addColumn('dm_state', 'varchar(16)', (c) => c.notNull().defaultTo('none'))
    .execute();
  await db.schema.createIndex('notices_user').on('notices').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('notices_dm').on('notices').column('dm_state').execute();
  await db.schema
    .createTable('notice_settings')
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.primaryKey().references('users.discord_id').onDelete('cascade'),
    )
    .addColumn('discord_dm', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notice_settings').execute();
  await db.schema.dropTable('notices').execute();
  await db.schema.alterTable('file_shares').dropColumn('notify_downloads').execute();
  await db.schema.dropIndex('files_upload_request').execute();
  await db.schema.alterTable('files').dropColumn('upload_request_id').execute();
  await db.schema.dropTable('upload_requests').execute();
}

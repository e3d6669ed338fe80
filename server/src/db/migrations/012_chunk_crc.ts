import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Chunks carry a CRC32C (issue 18): one cryptographic pass per byte (the file's SHA-256) instead of
 * two, with a hardware checksum checked on every read. `sha256` stays for chunks stored before, and
 * becomes optional for new ones. SQLite cannot drop a NOT NULL in place, so it rebuilds the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`ALTER TABLE file_chunks ALTER COLUMN sha256 DROP NOT NULL`.execute(db);
    await db.schema.alterTable('file_chunks').addColumn('crc32c', 'varchar(8)').execute();
    return;
  }
  await rebuildSqliteChunks(db, true);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await db.schema.alterTable('file_chunks').dropColumn('crc32c').execute();
    // Chunks stored with only a CRC32C cannot go back to a schema that needs a SHA-256.
    await sql`DELETE FROM file_chunks WHERE sha256 IS NULL`.execute(db);
    await sql`ALTER TABLE file_chunks ALTER COLUMN sha256 SET NOT NULL`.execute(db);
    return;
  }
  await sql`DELETE FROM file_chunks WHERE sha256 IS NULL`.execute(db);
  await rebuildSqliteChunks(db, false);
}

/** Recreates file_chunks with or without the crc32c column (and a nullable sha256 with it), keeping the rows. */
async function rebuildSqliteChunks(db: Kysely<unknown>, withCrc: boolean): Promise<void> {
  await db.schema
    .createTable('file_chunks_next')
    .addColumn('file_id', 'varchar(64)', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('blob_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => (withCrc ? c : c.notNull()))
    .$call((t) => (withCrc ? t.addColumn('crc32c', 'varchar(8)') : t))
    .addPrimaryKeyConstraint('file_chunks_next_pk', ['file_id', 'idx'])
    .execute();
  await sql`INSERT INTO file_chunks_next (file_id, idx, blob_id, size, sha256)
            SELECT file_id, idx, blob_id, size, sha256 FROM file_chunks`.execute(db);
  await db.schema.dropTable('file_chunks').execute();
  await sql`ALTER TABLE file_chunks_next RENAME TO file_chunks`.execute(db);
  await db.schema.createIndex('file_chunks_blob').on('file_chunks').column('blob_id').execute();
}

import type { Kysely } from 'kysely';

/**
 * Storage admission in the database (issue 26): `files.reserved_bytes` holds what an upload under way
 * has been admitted for but not yet recorded in `size` (a `POST /upload` body), and `storage_locks`
 * has one row whose update serialises admissions across requests and instances, so the check of the
 * quota and the disk reserve and the reservation are one step on SQLite and PostgreSQL alike.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('files')
    .addColumn('reserved_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('storage_locks')
    .addColumn('name', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await (db as Kysely<{ storage_locks: { name: string; version: number } }>)
    .insertInto('storage_locks')
    .values({ name: 'uploads', version: 0 })
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('storage_locks').execute();
  await db.schema.alterTable('files').dropColumn('reserved_bytes').execute();
}

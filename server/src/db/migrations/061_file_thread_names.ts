import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * `files.thread_id` holds the thread's name (`named:file-<uuid>`, 47 characters) while a Discord upload
 * waits for its thread, then the thread's id. SQLite does not enforce a varchar's length; PostgreSQL does.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await db.schema
    .alterTable('files')
    .alterColumn('thread_id', (c) => c.setDataType('varchar(64)'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await db.schema
    .alterTable('files')
    .alterColumn('thread_id', (c) => c.setDataType('varchar(32)'))
    .execute();
}

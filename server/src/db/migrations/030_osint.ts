import type { Kysely } from 'kysely';

/** OSINT (issue 28): each member's past searches, reports of wrong verdicts, and disabled sites. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('osint_searches')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('query', 'varchar(300)', (c) => c.notNull())
    .addColumn('overall_risk', 'varchar(16)', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('osint_searches_user_created')
    .on('osint_searches')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('osint_site_reports')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('search_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('site', 'varchar(120)', (c) => c.notNull())
    .addColumn('account', 'varchar(300)', (c) => c.notNull())
    .addColumn('verdict', 'varchar(16)', (c) => c.notNull())
    .addColumn('note', 'varchar(500)')
    .addColumn('reporter_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('reporter_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('osint_disabled_sites')
    .addColumn('name', 'varchar(120)', (c) => c.primaryKey())
    .addColumn('reason', 'varchar(300)', (c) => c.notNull())
    .addColumn('disabled_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('osint_disabled_sites').execute();
  await db.schema.dropTable('osint_site_reports').execute();
  await db.schema.dropTable('osint_searches').execute();
}

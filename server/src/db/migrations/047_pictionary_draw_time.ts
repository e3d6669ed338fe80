import type { Kysely } from 'kysely';

/** Pictionary's drawing time a turn, a lobby setting in seconds (`draw_seconds`; 80, the old fixed time, for existing games). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('pictionary_games')
    .addColumn('draw_seconds', 'integer', (c) => c.notNull().defaultTo(80))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('pictionary_games').dropColumn('draw_seconds').execute();
}

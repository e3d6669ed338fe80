import type { Kysely } from 'kysely';

/** Pictionary "Play again" (issue 29): a finished game points at the lobby its group moved on to. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('pictionary_games').addColumn('next_game_id', 'varchar(36)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('pictionary_games').dropColumn('next_game_id').execute();
}

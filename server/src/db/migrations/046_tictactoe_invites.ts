import type { Kysely } from 'kysely';

/**
 * Tic-tac-toe invites (issue 29): `is_private` marks a waiting game made with "Invite a friend": Find Game never
 * matches into it; its link (`/minigames/tic-tac-toe?join=<id>`) seats whoever opens it first as O.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tictactoe_games')
    .addColumn('is_private', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tictactoe_games').dropColumn('is_private').execute();
}

import type { Kysely } from 'kysely';

/**
 * Tic-tac-toe rematches (issue 29): `series` carries the tally of the games before this one in a chain of
 * rematches (JSON `{"wins": {userId: n}, "draws": n}`); `player1_left` / `player2_left` note a player who left
 * the finished game, so no rematch is offered to or by someone who has gone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tictactoe_games')
    .addColumn('series', 'text', (c) => c.notNull().defaultTo('{"wins":{},"draws":0}'))
    .execute();
  await db.schema
    .alterTable('tictactoe_games')
    .addColumn('player1_left', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('tictactoe_games')
    .addColumn('player2_left', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tictactoe_games').dropColumn('player2_left').execute();
  await db.schema.alterTable('tictactoe_games').dropColumn('player1_left').execute();
  await db.schema.alterTable('tictactoe_games').dropColumn('series').execute();
}

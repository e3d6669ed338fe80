import type { Kysely } from 'kysely';

/**
 * Tic-tac-toe. `tictactoe_seats` holds one row per player of an unfinished game; its primary key is what
 * makes "at most one unfinished game per player" race-free on SQLite and PostgreSQL alike.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tictactoe_games')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('board', 'varchar(9)', (c) => c.notNull())
    .addColumn('current_player', 'varchar(1)', (c) => c.notNull())
    .addColumn('winner', 'varchar(8)')
    .addColumn('end_reason', 'varchar(16)')
    .addColumn('player1_id', 'varchar(64)', (c) =>
      c.notNull().references('users.discord_id').onDelete('cascade'),
    )
    .addColumn('player2_id', 'varchar(64)', (c) => c.references('users.discord_id').onDelete('cascade'))
    .addColumn('last_move', 'integer')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reserved_for', 'varchar(64)')
    .addColumn('rematch_of', 'varchar(36)')
    .addColumn('rematch_id', 'varchar(36)')
    .addColumn('rematch_by', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tictactoe_games_matchmaking')
    .on('tictactoe_games')
    .columns(['status', 'created_at'])
    .execute();

  await db.schema
    .createTable('tictactoe_seats')
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.primaryKey().references('users.discord_id').onDelete('cascade'),
    )
    .addColumn('game_id', 'varchar(36)', (c) =>
      c.notNull().references('tictactoe_games.id').onDelete('cascade'),
    )
    // When the player last had the game on screen; matchmaking skips games whose creator has gone.
    .addColumn('seen_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tictactoe_seats_game').on('tictactoe_seats').column('game_id').execute();

  // One row that every join transaction updates first: it serializes matchmaking on PostgreSQL (row lock)
  // and SQLite (write lock), so two players pressing Find Game at once meet instead of both waiting.
  await db.schema
    .createTable('tictactoe_matchmaking')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('turns', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await (db as Kysely<{ tictactoe_matchmaking: { id: number; turns: number } }>)
    .insertInto('tictactoe_matchmaking')
    .values({ id: 1, turns: 0 })
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('tictactoe_matchmaking').execute();
  await db.schema.dropTable('tictactoe_seats').execute();
  await db.schema.dropTable('tictactoe_games').execute();
}

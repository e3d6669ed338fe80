import type { Kysely } from 'kysely';

/**
 * Pictionary. `pictionary_seats` (primary key user_id) makes "one unfinished game per player" race-free;
 * the game row's version guards every state change; `turn_ends_at` lets any instance advance a due turn.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pictionary_games')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('host_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('max_rounds', 'integer', (c) => c.notNull())
    .addColumn('max_players', 'integer', (c) => c.notNull())
    .addColumn('word_banks', 'text', (c) => c.notNull())
    .addColumn('custom_words', 'text', (c) => c.notNull())
    .addColumn('round_number', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('turn_number', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('turn_phase', 'varchar(16)')
    .addColumn('turn_ends_at', 'varchar(32)')
    .addColumn('drawer_id', 'varchar(64)')
    .addColumn('current_word', 'varchar(64)')
    .addColumn('used_words', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pictionary_games_due')
    .on('pictionary_games')
    .columns(['status', 'turn_ends_at'])
    .execute();

  await db.schema
    .createTable('pictionary_players')
    .addColumn('game_id', 'varchar(36)', (c) =>
      c.notNull().references('pictionary_games.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.notNull().references('users.discord_id').onDelete('cascade'),
    )
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('score', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('joined_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('left_at', 'varchar(32)')
    .addPrimaryKeyConstraint('pictionary_players_pk', ['game_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('pictionary_seats')
    .addColumn('user_id', 'varchar(64)', (c) =>
      c.primaryKey().references('users.discord_id').onDelete('cascade'),
    )
    .addColumn('game_id', 'varchar(36)', (c) =>
      c.notNull().references('pictionary_games.id').onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('pictionary_seats_game').on('pictionary_seats').column('game_id').execute();

  await db.schema
    .createTable('pictionary_guesses')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('game_id', 'varchar(36)', (c) =>
      c.notNull().references('pictionary_games.id').onDelete('cascade'),
    )
    .addColumn('turn_number', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('guess', 'varchar(128)', (c) => c.notNull())
    .addColumn('is_correct', 'integer', (c) => c.notNull())
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pictionary_guesses_turn')
    .on('pictionary_guesses')
    .columns(['game_id', 'turn_number', 'created_at'])
    .execute();

  await db.schema
    .createTable('pictionary_strokes')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('game_id', 'varchar(36)', (c) =>
      c.notNull().references('pictionary_games.id').onDelete('cascade'),
    )
    .addColumn('turn_number', 'integer', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('segments', 'text', (c) => c.notNull())
    .addColumn('segment_count', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pictionary_strokes_turn')
    .on('pictionary_strokes')
    .columns(['game_id', 'turn_number', 'seq'])
    .execute();

  await db.schema
    .createTable('pictionary_matchmaking')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('turns', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await (db as Kysely<{ pictionary_matchmaking: { id: number; turns: number } }>)
    .insertInto('pictionary_matchmaking')
    .values({ id: 1, turns: 0 })
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'pictionary_matchmaking',
    'pictionary_strokes',
    'pictionary_guesses',
    'pictionary_seats',
    'pictionary_players',
    'pictionary_games',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}

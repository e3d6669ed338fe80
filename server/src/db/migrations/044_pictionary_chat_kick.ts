import type { Kysely } from 'kysely';

/**
 * Pictionary chat among players who guessed, and vote-kick (issue 29):
 * - `pictionary_chat`: messages of one turn, shown only to that turn's drawer and players who guessed it;
 * - `pictionary_kick_votes`: one row per voter and target of a running game;
 * - `pictionary_kicked`: players removed from a game (by votes, or by the host in the lobby); they cannot rejoin it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pictionary_chat')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('game_id', 'varchar(36)', (c) =>
      c.notNull().references('pictionary_games.id').onDelete('cascade'),
    )
    .addColumn('turn_number', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('text', 'varchar(128)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pictionary_chat_turn')
    .on('pictionary_chat')
    .columns(['game_id', 'turn_number', 'created_at'])
    .execute();

  await db.schema
    .createTable('pictionary_kick_votes')
    .addColumn('game_id', 'varchar(36)', (c) =>
      c.notNull().references('pictionary_games.id').onDelete('cascade'),
    )
    .addColumn('target_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('voter_id', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('pictionary_kick_votes_pk', ['game_id', 'target_id', 'voter_id'])
    .execute();

  await db.schema
    .createTable('pictionary_kicked')
    .addColumn('game_id', 'varchar(36)', (c) =>
      c.notNull().references('pictionary_games.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('pictionary_kicked_pk', ['game_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['pictionary_kicked', 'pictionary_kick_votes', 'pictionary_chat'])
    await db.schema.dropTable(t).execute();
}

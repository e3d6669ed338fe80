import type { Kysely } from 'kysely';

/**
 * Pictionary fairness and presence (issues 26 and 29):
 * - `pictionary_guesses.is_private`: a close guess, or a wrong one containing the word, shown to its author only;
 * - `pictionary_strokes.kind`: `stroke` or `clear`; a clear is a marker row, so the turn's segment budget keeps
 *   counting what was cleared (on every instance, across restarts) and a replay starts after the last clear;
 * - `pictionary_players.seen_at` / `away`: when the player last had the game open, and whether they count as gone;
 * - `pictionary_games.is_private`: a lobby that Find Game never fills, joined by its invite link only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('pictionary_guesses')
    .addColumn('is_private', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('pictionary_strokes')
    .addColumn('kind', 'varchar(16)', (c) => c.notNull().defaultTo('stroke'))
    .execute();
  await db.schema.alterTable('pictionary_players').addColumn('seen_at', 'varchar(32)').execute();
  await db.schema
    .alterTable('pictionary_players')
    .addColumn('away', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('pictionary_games')
    .addColumn('is_private', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('pictionary_games').dropColumn('is_private').execute();
  await db.schema.alterTable('pictionary_players').dropColumn('away').execute();
  await db.schema.alterTable('pictionary_players').dropColumn('seen_at').execute();
  await db.schema.alterTable('pictionary_strokes').dropColumn('kind').execute();
  await db.schema.alterTable('pictionary_guesses').dropColumn('is_private').execute();
}

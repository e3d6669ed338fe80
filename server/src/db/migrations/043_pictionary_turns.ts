import type { Kysely } from 'kysely';

/**
 * Pictionary turns like skribbl.io (issue 29), on `pictionary_games`:
 * - `word_choices`: JSON list of the three words offered to the drawer while `turn_phase = 'choosing'`
 *   (cleared once one is picked; read only by the presenter for the drawer);
 * - `hint_count`: the lobby setting, 0–3 letter hints a turn;
 * - `hint_order`: JSON list of the letter positions a turn's hints reveal, in order (fixed when the word is set);
 * - `hints_shown`: how many of them are revealed so far; `next_hint_at`: when the next one is due (null: none).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('pictionary_games').addColumn('word_choices', 'text').execute();
  await db.schema
    .alterTable('pictionary_games')
    .addColumn('hint_count', 'integer', (c) => c.notNull().defaultTo(2))
    .execute();
  await db.schema
    .alterTable('pictionary_games')
    .addColumn('hint_order', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('pictionary_games')
    .addColumn('hints_shown', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('pictionary_games').addColumn('next_hint_at', 'varchar(32)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const c of ['next_hint_at', 'hints_shown', 'hint_order', 'hint_count', 'word_choices'])
    await db.schema.alterTable('pictionary_games').dropColumn(c).execute();
}

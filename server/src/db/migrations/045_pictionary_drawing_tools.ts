import type { Kysely } from 'kysely';

/**
 * Pictionary drawing tools (issue 29): `pictionary_strokes.stroke_id` names the stroke a row belongs to, so an
 * undo can remove a whole stroke (every batch from pointer-down to pointer-up). Rows of kind `undo` carry the
 * stroke they removed, rows of kind `fill` their own stroke. Older rows have none: each is a stroke of its own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('pictionary_strokes').addColumn('stroke_id', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('pictionary_strokes').dropColumn('stroke_id').execute();
}

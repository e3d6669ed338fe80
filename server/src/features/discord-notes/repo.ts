import type { Db } from '../../db/index.ts';
import type { DiscordNotesOutboxTable } from './tables.ts';

/** The settings are one JSON value in the instance-wide `settings` table. */
const SETTINGS_KEY = 'discord_notes';

export async function readSettingsValue(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', SETTINGS_KEY)
    .executeTakeFirst();
  return row?.value ?? null;
}

export async function writeSettingsValue(db: Db, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key: SETTINGS_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

export async function insertNote(db: Db, row: DiscordNotesOutboxTable): Promise<void> {
  await db.insertInto('discord_notes_outbox').values(row).execute();
}

/** The oldest waiting notes, first queued first. */
export async function oldestNotes(db: Db, limit: number): Promise<DiscordNotesOutboxTable[]> {
  return db
    .selectFrom('discord_notes_outbox')
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Takes a note off the queue; false when another drain took it first (it is posted once). */
export async function takeNote(db: Db, id: string): Promise<boolean> {
  const r = await db.deleteFrom('discord_notes_outbox').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

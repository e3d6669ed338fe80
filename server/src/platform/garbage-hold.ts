import type { Db } from '../db/index.ts';

/**
 * A backup holds off the blob garbage collector while it copies blobs: a file deleted after the
 * backup's database snapshot still has its chunks in that snapshot, so they must stay in the store
 * until copied. The hold is a lease in `settings` (shared by every instance on the database) that the
 * backup renews while it runs; a backup that dies stops renewing it and collection resumes when it
 * runs out.
 */
const KEY = 'garbage_hold_until';

/** Holds garbage collection until `until` (or later, if another backup holds it longer). */
export async function holdGarbage(db: Db, until: Date): Promise<void> {
  const value = until.toISOString();
  await db
    .insertInto('settings')
    .values({ key: KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }).where('settings.value', '<', value))
    .execute();
}

/** Ends a hold this process set (a longer one set by another backup stays). */
export async function releaseGarbage(db: Db, until: Date): Promise<void> {
  await db.deleteFrom('settings').where('key', '=', KEY).where('value', '<=', until.toISOString()).execute();
}

/** Whether a backup holds the collector now. */
export async function garbageHeld(db: Db, now = new Date()): Promise<boolean> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', KEY).executeTakeFirst();
  return row !== undefined && row.value > now.toISOString();
}

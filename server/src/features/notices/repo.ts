import type { Db } from '../../db/index.ts';
import type { NoticeDmState, NoticesTable } from './tables.ts';

/** Kysely queries of notices (issue 45). */

export async function insertNotice(db: Db, row: NoticesTable): Promise<void> {
  await db.insertInto('notices').values(row).execute();
}

/** Notices of a member created at or after `since` (ISO), and how many of them asked for a DM. */
export async function countRecent(
  db: Db,
  userId: string,
  since: string,
): Promise<{ all: number; dms: number }> {
  const rows = await db
    .selectFrom('notices')
    .select(['dm_state'])
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .execute();
  const dms = rows.filter((r) => r.dm_state !== 'none' && r.dm_state !== 'skipped').length;
  return { all: rows.length, dms };
}

export async function listNotices(db: Db, userId: string, limit: number): Promise<NoticesTable[]> {
  return db
    .selectFrom('notices')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function countUnread(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('notices')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks a member's notices read (the listed ones, or all); others' ids change nothing. */
export async function markRead(
  db: Db,
  userId: string,
  ids: string[] | undefined,
  now: string,
): Promise<void> {
  let q = db
    .updateTable('notices')
    .set({ read_at: now })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null);
  if (ids) {
    if (ids.length === 0) return;
    q = q.where('id', 'in', ids);
  }
  await q.execute();
}

/** Deletes notices created before `before` (ISO): the 30-day retention. */
export async function purgeBefore(db: Db, before: string): Promise<number> {
  const r = await db.deleteFrom('notices').where('created_at', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}

export async function dmAllowed(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('notice_settings')
    .select('discord_dm')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.discord_dm ?? 0) === 1;
}

export async function saveDmAllowed(db: Db, userId: string, allowed: boolean, now: string): Promise<void> {
  const value = allowed ? 1 : 0;
  await db
    .insertInto('notice_settings')
    .values({ user_id: userId, discord_dm: value, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ discord_dm: value, updated_at: now }))
    .execute();
}

/** Notices waiting for their direct message, oldest first. */
export async function pendingDms(db: Db, limit: number): Promise<NoticesTable[]> {
  return db
    .selectFrom('notices')
    .selectAll()
    .where('dm_state', '=', 'pending')
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** Moves a notice's DM from one state to another; false when it was no longer in `from` (taken by another run). */
export async function moveDm(db: Db, id: string, from: NoticeDmState, to: NoticeDmState): Promise<boolean> {
  const r = await db
    .updateTable('notices')
    .set({ dm_state: to })
    .where('id', '=', id)
    .where('dm_state', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

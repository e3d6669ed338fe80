import { randomUUID } from 'node:crypto';
import {
  NOTICE_DMS_PER_MEMBER_PER_HOUR,
  NOTICE_RETENTION_MS,
  NOTICES_LIST_MAX,
  NOTICES_PER_MEMBER_PER_HOUR,
  type NoticeKind,
} from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import {
  countRecent,
  countUnread,
  dmAllowed,
  insertNotice,
  listNotices,
  markRead,
  purgeBefore,
  saveDmAllowed,
} from './repo.ts';
import type { NoticesTable } from './tables.ts';

const HOUR_MS = 60 * 60_000;

export type NoticeInput = { userId: string; kind: NoticeKind; text: string; link: string | null };

/**
 * Records a notice for a member (a share of theirs downloaded, a file arrived through their upload
 * link). Past NOTICES_PER_MEMBER_PER_HOUR in the last hour it is dropped, so nobody can flood a
 * member's list (or their Discord) by downloading a share in a loop; past NOTICE_DMS_PER_MEMBER_PER_HOUR
 * it stays in the portal only. The direct message is sent later by the bot's holder (dm.ts), never
 * here: the instance that served the download may not hold the bot. Returns the notice, or null if dropped.
 */
export async function recordNotice(db: Db, input: NoticeInput, now: Date): Promise<NoticesTable | null> {
  const since = new Date(now.getTime() - HOUR_MS).toISOString();
  const recent = await countRecent(db, input.userId, since);
  if (recent.all >= NOTICES_PER_MEMBER_PER_HOUR) return null;
  const wantsDm = await dmAllowed(db, input.userId);
  const row: NoticesTable = {
    id: randomUUID(),
    user_id: input.userId,
    kind: input.kind,
    text: input.text.slice(0, 1000),
    link: input.link,
    created_at: now.toISOString(),
    read_at: null,
    dm_state: !wantsDm ? 'none' : recent.dms >= NOTICE_DMS_PER_MEMBER_PER_HOUR ? 'skipped' : 'pending',
  };
  await insertNotice(db, row);
  return row;
}

export async function noticesOf(db: Db, userId: string) {
  const [rows, unread] = await Promise.all([
    listNotices(db, userId, NOTICES_LIST_MAX),
    countUnread(db, userId),
  ]);
  return { rows, unread };
}

export const unreadCount = countUnread;

export async function markNoticesRead(db: Db, userId: string, ids: string[] | undefined, now: Date) {
  await markRead(db, userId, ids, now.toISOString());
}

/** Removes notices older than the retention (30 days) at `nowMs` (the injected clock's time). */
export function purgeOldNotices(db: Db, nowMs: number): Promise<number> {
  return purgeBefore(db, new Date(nowMs - NOTICE_RETENTION_MS).toISOString());
}

export const isDmAllowed = dmAllowed;

export async function setDmAllowed(db: Db, userId: string, allowed: boolean, now: Date) {
  await saveDmAllowed(db, userId, allowed, now.toISOString());
}

import { sql } from 'kysely';
import type { Db } from '../../../db/index.ts';

/** Bytes a member's files take (listed, stored and uploading; a resumable upload counts its declared length). */
export async function usedBytes(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('files')
    .select(sql<number | string | null>`sum(size)`.as('used'))
    .where('owner_id', '=', userId)
    .where('type', '=', 'file')
    .executeTakeFirst();
  return Number(row?.used ?? 0);
}

export async function customQuota(db: Db, userId: string): Promise<number | null> {
  const row = await db
    .selectFrom('storage_quotas')
    .select('quota_bytes')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? Number(row.quota_bytes) : null;
}

export async function setCustomQuota(
  db: Db,
  userId: string,
  bytes: number | null,
  now: string,
): Promise<void> {
  if (bytes === null) {
    await db.deleteFrom('storage_quotas').where('user_id', '=', userId).execute();
    return;
  }
  await db
    .insertInto('storage_quotas')
    .values({ user_id: userId, quota_bytes: bytes, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ quota_bytes: bytes, updated_at: now }))
    .execute();
}

/** Every member with their usage and custom quota, for the admin panel. */
export async function storageByUser(db: Db) {
  const users = await db.selectFrom('users').select(['discord_id', 'username']).orderBy('username').execute();
  const used = await db
    .selectFrom('files')
    .select(['owner_id', sql<number | string | null>`sum(size)`.as('used')])
    .where('type', '=', 'file')
    .groupBy('owner_id')
    .execute();
  const quotas = await db.selectFrom('storage_quotas').select(['user_id', 'quota_bytes']).execute();
  const usedBy = new Map(used.map((r) => [r.owner_id, Number(r.used ?? 0)]));
  const quotaBy = new Map(quotas.map((q) => [q.user_id, Number(q.quota_bytes)]));
  return users.map((u) => ({
    userId: u.discord_id,
    username: u.username,
    usedBytes: usedBy.get(u.discord_id) ?? 0,
    customQuota: quotaBy.get(u.discord_id) ?? null,
  }));
}

export async function userExists(db: Db, userId: string): Promise<{ username: string } | undefined> {
  return db.selectFrom('users').select('username').where('discord_id', '=', userId).executeTakeFirst();
}

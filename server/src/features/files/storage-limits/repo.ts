import { sql } from 'kysely';
import type { Db } from '../../../db/index.ts';

type Reader = Pick<Db, 'selectFrom'>;

/**
 * Bytes a member's files take: listed, stored and uploading, a resumable upload counting its declared
 * length (its `size`) and a `POST /upload` under way what it was admitted for (`reserved_bytes`).
 */
export async function usedBytes(db: Reader, userId: string): Promise<number> {
  const row = await db
    .selectFrom('files')
    .select(sql<number | string | null>`sum(size + reserved_bytes)`.as('used'))
    .where('owner_id', '=', userId)
    .where('type', '=', 'file')
    .executeTakeFirst();
  return Number(row?.used ?? 0);
}

export async function customQuota(db: Reader, userId: string): Promise<number | null> {
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
    .select(['owner_id', sql<number | string | null>`sum(size + reserved_bytes)`.as('used')])
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

/**
 * Bytes that uploads under way (on any instance) were admitted for and have not yet stored: their
 * declared or reserved length less the chunks they have recorded. The disk must still hold this much.
 */
export async function outstandingUploadBytes(db: Reader): Promise<number> {
  const promised = await db
    .selectFrom('files')
    .select(sql<number | string | null>`sum(size + reserved_bytes)`.as('bytes'))
    .where('type', '=', 'file')
    .where('status', '=', 'uploading')
    .executeTakeFirst();
  const stored = await db
    .selectFrom('file_chunks')
    .innerJoin('files', 'files.id', 'file_chunks.file_id')
    .select(sql<number | string | null>`sum(file_chunks.size)`.as('bytes'))
    .where('files.type', '=', 'file')
    .where('files.status', '=', 'uploading')
    .executeTakeFirst();
  return Math.max(0, Number(promised?.bytes ?? 0) - Number(stored?.bytes ?? 0));
}

/** A member's resumable uploads not yet finished (their rows carry the resumable mark). */
export async function openResumableUploads(db: Reader, userId: string): Promise<number> {
  const row = await db
    .selectFrom('files')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('owner_id', '=', userId)
    .where('type', '=', 'file')
    .where('status', '=', 'uploading')
    .where('upload_hash_state', 'is not', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Takes the admissions lock for the rest of the transaction: an update of its one row, which
 * PostgreSQL holds as a row lock until commit and SQLite as its write lock, so admissions on every
 * instance sharing the database run one after another.
 */
export async function lockAdmissions(trx: Pick<Db, 'updateTable'>): Promise<void> {
  await trx
    .updateTable('storage_locks')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('name', '=', 'uploads')
    .execute();
}

/** A `POST /upload` under way: its admitted bytes and what its chunks hold so far. */
/** Sets what a `POST /upload` under way was admitted for (inside the admission transaction). */
export async function setReservation(
  db: Pick<Db, 'updateTable'>,
  fileId: string,
  bytes: number,
): Promise<void> {
  await db.updateTable('files').set({ reserved_bytes: bytes }).where('id', '=', fileId).execute();
}

export async function reservationOf(db: Reader, fileId: string): Promise<number> {
  const row = await db
    .selectFrom('files')
    .select('reserved_bytes')
    .where('id', '=', fileId)
    .executeTakeFirst();
  return Number(row?.reserved_bytes ?? 0);
}

import fs from 'node:fs';
import { type AdminStorageEntry, formatFileSize, type StorageUsage, securityTexts } from '@guildhall/common';
import type { Transaction } from 'kysely';
import type { Db } from '../../../db/index.ts';
import type { Database } from '../../../db/schema.ts';
import { fail } from '../../../platform/errors.ts';
import type { UnrecordedBytes } from '../../../platform/transfer/chunker.ts';
import { recordActivity } from '../../admin/index.ts';
import {
  customQuota,
  lockAdmissions,
  openResumableUploads,
  outstandingUploadBytes,
  reservationOf,
  setCustomQuota,
  setReservation,
  storageByUser,
  usedBytes,
  userExists,
} from './repo.ts';

type Trx = Transaction<Database>;

/** STORAGE_QUOTA_BYTES, STORAGE_RESERVE_BYTES, RESUMABLE_UPLOADS_PER_USER, and where local blobs live. */
export type StorageLimits = {
  defaultQuotaBytes: number | null;
  reserveBytes: number;
  /** The local store's directory (the reserve is kept on its disk); null when blobs are remote. */
  localBlobDir: string | null;
  /** Unfinished resumable uploads one member may have open (their declared sizes count meanwhile). */
  resumablePerUser: number;
  /**
   * Chunks this process is writing whose rows are not recorded yet (platform/transfer/chunker.ts):
   * on the disk already, and still owed by their upload. Every upload's chunker counts into this one.
   */
  unrecorded: UnrecordedBytes;
};

export const quotaExceeded = (quota: number) =>
  fail('QUOTA_EXCEEDED', securityTexts.quotaExceeded(formatFileSize(quota)));
export const diskFull = () => fail('STORAGE_FULL', securityTexts.diskFull);

/**
 * Free bytes on the local store's disk as the checks count them: what the file system reports plus the
 * chunks written but not yet recorded, which `outstandingUploadBytes` still counts as owed. (Another
 * instance writing to the same disk can still be counted twice for its chunks in flight: at most one
 * chunk per upload it is receiving; docs/security.md.)
 */
async function roomOnDisk(limits: StorageLimits & { localBlobDir: string }): Promise<number> {
  const free = await freeBytes(limits.localBlobDir);
  // Read after the file system's answer: a chunk that answer shows as written has begun its put.
  return free + Math.max(0, limits.unrecorded.bytes);
}

/** Free bytes on the local store's disk (what an unprivileged process may use). */
export async function freeBytes(dir: string): Promise<number> {
  await fs.promises.mkdir(dir, { recursive: true });
  const s = await fs.promises.statfs(dir);
  return s.bavail * s.bsize;
}

export async function usageOf(db: Db, limits: StorageLimits, userId: string): Promise<StorageUsage> {
  const [used, custom] = await Promise.all([usedBytes(db, userId), customQuota(db, userId)]);
  return { usedBytes: used, quotaBytes: custom ?? limits.defaultQuotaBytes };
}

/** The reserve applies: blobs go to the local disk and a reserve is set. */
function checksDisk(limits: StorageLimits): limits is StorageLimits & { localBlobDir: string } {
  return limits.localBlobDir !== null && limits.reserveBytes > 0;
}

/**
 * 507 unless `bytes` more fit the member's quota (counting every upload of theirs under way, on any
 * instance) and the disk keeps its reserve after every upload under way has stored what it was
 * admitted for. Runs inside the admissions lock (see admitUpload).
 */
async function checkRoom(trx: Trx, limits: StorageLimits, userId: string, bytes: number): Promise<void> {
  const quota = (await customQuota(trx, userId)) ?? limits.defaultQuotaBytes;
  if (quota !== null && (await usedBytes(trx, userId)) + bytes > quota) throw quotaExceeded(quota);
  if (checksDisk(limits)) {
    const free = await roomOnDisk(limits);
    const left = free - limits.reserveBytes - (await outstandingUploadBytes(trx));
    if (bytes > left || left <= 0) throw diskFull();
  }
}

export const tooManyResumable = (limit: number) =>
  fail('TOO_MANY_RESUMABLE_UPLOADS', securityTexts.tooManyResumableUploads(limit));

/**
 * Admits an upload of `declared` bytes (tus Upload-Length, or a POST /upload body's Content-Length)
 * before a byte of it is stored, and runs `record` — the insert of the row that then counts those
 * bytes — in the same transaction, under the admissions lock: the check and the reservation are one
 * step, so concurrent requests on any number of instances sharing the database cannot each take the
 * same room. 507 over the quota or into the disk reserve; 429 past the open resumable uploads cap.
 */
export async function admitUpload(
  db: Db,
  limits: StorageLimits,
  upload: { userId: string; declared: number; resumable: boolean },
  record: (trx: Trx) => Promise<void>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockAdmissions(trx);
    if (upload.resumable && (await openResumableUploads(trx, upload.userId)) >= limits.resumablePerUser) {
      throw tooManyResumable(limits.resumablePerUser);
    }
    await checkRoom(trx, limits, upload.userId, upload.declared);
    await record(trx);
  });
}

/**
 * Grows a POST /upload's reservation to `total` bytes before more of it is stored (a body of unknown
 * length, or a file a little larger than its Content-Length estimate): 507 if that does not fit.
 */
export async function growReservation(
  db: Db,
  limits: StorageLimits,
  userId: string,
  fileId: string,
  total: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockAdmissions(trx);
    const current = await reservationOf(trx, fileId);
    if (total <= current) return;
    await checkRoom(trx, limits, userId, total - current);
    await setReservation(trx, fileId, total);
  });
}

/**
 * Before a resumable upload's next bytes (a tus PATCH): the disk must still hold, above its reserve,
 * what every upload under way was admitted for. Something else filling the disk (the database, other
 * programs) then stops uploads with a 507 instead of eating into the reserve.
 */
export async function checkDiskStillHolds(db: Db, limits: StorageLimits): Promise<void> {
  if (!checksDisk(limits)) return;
  // In this order (free space, then the unrecorded count, then what is owed), a chunk being written
  // meanwhile is counted at most once: seen on disk, it is either still unrecorded (added back) or
  // recorded (no longer owed).
  const free = await roomOnDisk(limits);
  const outstanding = await outstandingUploadBytes(db);
  if (free - limits.reserveBytes < outstanding) throw diskFull();
}

/** A write the file system refused for want of space (ENOSPC, or a disk quota: EDQUOT). */
export function isNoSpace(e: unknown): boolean {
  for (let err = e, depth = 0; err && typeof err === 'object' && depth < 4; depth++) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') return true;
    err = (err as { cause?: unknown }).cause;
  }
  return false;
}

export async function adminStorageList(db: Db, limits: StorageLimits): Promise<AdminStorageEntry[]> {
  const rows = await storageByUser(db);
  return rows.map((r) => ({
    userId: r.userId,
    username: r.username,
    usedBytes: r.usedBytes,
    quotaBytes: r.customQuota ?? limits.defaultQuotaBytes,
    customQuota: r.customQuota !== null,
  }));
}

/** Sets (or with null, removes) a member's own quota; the admin audit trail records it. */
export async function setQuota(
  db: Db,
  limits: StorageLimits,
  actor: { id: string; username: string },
  userId: string,
  quotaBytes: number | null,
  now: string,
): Promise<AdminStorageEntry> {
  const user = await userExists(db, userId);
  if (!user) throw fail('NOT_FOUND', 'User not found');
  await setCustomQuota(db, userId, quotaBytes, now);
  const shown = quotaBytes ?? limits.defaultQuotaBytes;
  await recordActivity(db, {
    actor,
    action: 'storage.quota',
    target: { id: userId, name: user.username },
    details: {
      quota: `${shown === null ? 'none' : formatFileSize(shown)}${quotaBytes === null ? ' (default)' : ''}`,
    },
  });
  const usage = await usageOf(db, limits, userId);
  return { userId, username: user.username, ...usage, customQuota: quotaBytes !== null };
}

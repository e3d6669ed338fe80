import fs from 'node:fs';
import { type AdminStorageEntry, formatFileSize, type StorageUsage, securityTexts } from '@guildhall/common';
import type { Db } from '../../../db/index.ts';
import { HttpError } from '../../../platform/errors.ts';
import { nowIso } from '../../../platform/time.ts';
import { recordActivity } from '../../admin/index.ts';
import { customQuota, setCustomQuota, storageByUser, usedBytes, userExists } from './repo.ts';

/** STORAGE_QUOTA_BYTES and STORAGE_RESERVE_BYTES, and where the local store keeps its blobs. */
export type StorageLimits = {
  defaultQuotaBytes: number | null;
  reserveBytes: number;
  /** The local store's directory (the reserve is kept on its disk); null when blobs are remote. */
  localBlobDir: string | null;
  /** Declared bytes of uploads under way on this instance, not yet counted by the database or the disk. */
  inFlight: InFlightBytes;
};

/**
 * Bytes that uploads under way have declared, per member and in all. Checked and taken in one step
 * (no await between), so a member's concurrent uploads cannot each fit the same remaining room.
 */
export class InFlightBytes {
  private readonly byUser = new Map<string, number>();
  total = 0;

  of(userId: string): number {
    return this.byUser.get(userId) ?? 0;
  }

  take(userId: string, bytes: number): () => void {
    this.byUser.set(userId, this.of(userId) + bytes);
    this.total += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.of(userId) - bytes;
      if (left <= 0) this.byUser.delete(userId);
      else this.byUser.set(userId, left);
      this.total -= bytes;
    };
  }
}

export const quotaExceeded = (quota: number) =>
  new HttpError(507, securityTexts.quotaExceeded(formatFileSize(quota)), 'QUOTA_EXCEEDED');
export const diskFull = () => new HttpError(507, securityTexts.diskFull, 'STORAGE_FULL');

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

/**
 * Checks an upload of `declared` bytes (Upload-Length, or the body's Content-Length) before a byte of it
 * is stored: 507 when it would take the member over their quota or the disk under the reserve, counting
 * the other uploads under way. Holds `declared` bytes for this upload until `release()`. Returns how many
 * bytes may arrive in all (a body of unknown length is held to it while streaming).
 */
export async function roomFor(
  db: Db,
  limits: StorageLimits,
  userId: string,
  declared: number,
): Promise<{ room: number; refusal: () => HttpError; release: () => void }> {
  const checkDisk = limits.localBlobDir !== null && limits.reserveBytes > 0;
  const [{ quotaBytes, usedBytes: used }, free] = await Promise.all([
    usageOf(db, limits, userId),
    checkDisk ? freeBytes(limits.localBlobDir!) : Promise.resolve(Number.POSITIVE_INFINITY),
  ]);
  // From here to take(): no await, so concurrent uploads see each other's holds.
  let room = Number.POSITIVE_INFINITY;
  let reason: 'quota' | 'disk' | null = null;
  if (quotaBytes !== null) {
    room = Math.max(0, quotaBytes - used - limits.inFlight.of(userId));
    reason = 'quota';
    if (declared > room) throw quotaExceeded(quotaBytes);
  }
  if (checkDisk) {
    const diskRoom = Math.max(0, free - limits.reserveBytes - limits.inFlight.total);
    if (declared > diskRoom || diskRoom === 0) throw diskFull();
    if (diskRoom < room) {
      room = diskRoom;
      reason = 'disk';
    }
  }
  const refusal = () => (reason === 'quota' && quotaBytes !== null ? quotaExceeded(quotaBytes) : diskFull());
  return { room, refusal, release: limits.inFlight.take(userId, declared) };
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
): Promise<AdminStorageEntry> {
  const user = await userExists(db, userId);
  if (!user) throw new HttpError(404, 'User not found', 'NOT_FOUND');
  await setCustomQuota(db, userId, quotaBytes, nowIso());
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

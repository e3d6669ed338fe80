import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { BlobStore } from '../../platform/blob-store/index.ts';
import { beatOn, type Clock } from '../../platform/feature.ts';
import { garbageHeld } from '../../platform/garbage-hold.ts';
import {
  deleteExpiredTickets,
  deleteItemRow,
  knownBlobIds,
  listAbandonedUploads,
  listGarbage,
  queueChunksAsGarbage,
  queueGarbage,
  removeGarbage,
} from './repo.ts';

/** An upload stream renews its lease this often; a crashed process stops renewing it. */
export const UPLOAD_LEASE_RENEW_MS = 30_000;
/** An upload whose lease ran out this long ago is abandoned (the process receiving it died). */
export const UPLOAD_LEASE_MS = 2 * 60_000;
/** Stored bytes waiting for POST /upload/complete are dropped after this long. */
export const STORED_UPLOAD_TTL_MS = 60 * 60_000;
/** Blobs no row knows are deleted once this old (younger ones may belong to an upload in flight). */
export const ORPHAN_BLOB_MIN_AGE_MS = 60 * 60_000;
export const SWEEP_INTERVAL_MS = 60_000;
const ORPHAN_SWEEP_EVERY = 60; // sweeps, i.e. hourly

/**
 * Deletes queued blobs from the store, then their queue rows. A blob that fails stays queued. While a
 * backup holds the collector nothing is deleted; the hold is read after the batch, so every blob of a
 * batch was queued before the hold began, hence before the backup's snapshot (docs/operations.md).
 */
export async function collectGarbage(db: Db, store: BlobStore): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await listGarbage(db, 100);
    if (batch.length === 0 || (await garbageHeld(db))) return deleted;
    const done: string[] = store.deleteMany ? await store.deleteMany(batch) : [];
    for (const id of store.deleteMany ? [] : batch) {
      try {
        await store.delete(id);
        done.push(id);
      } catch {
        // Left in the queue for the next sweep.
      }
    }
    await removeGarbage(db, done);
    deleted += done.length;
    if (done.length < batch.length) return deleted;
  }
}

/** Removes an item row (cascading to its chunks, shares and tickets) and queues its blobs, atomically. */
export async function discardItems(db: Db, ids: string[], now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await queueChunksAsGarbage(trx, ids, now.toISOString());
    for (const id of ids) await deleteItemRow(trx, id);
  });
}

/** Drops uploads that stopped receiving (lease expired) or were never completed. */
export async function sweepAbandonedUploads(db: Db, now: Date): Promise<number> {
  const storedBefore = new Date(now.getTime() - STORED_UPLOAD_TTL_MS).toISOString();
  const ids = await listAbandonedUploads(db, now.toISOString(), storedBefore);
  if (ids.length > 0) await discardItems(db, ids, now);
  return ids.length;
}

/** Queues blobs that exist in the store but that no chunk row knows (a crash between write and insert). */
export async function sweepOrphanBlobs(db: Db, store: BlobStore, now: Date): Promise<number> {
  if (!store.list) return 0;
  const cutoff = now.getTime() - ORPHAN_BLOB_MIN_AGE_MS;
  let queued = 0;
  let batch: string[] = [];
  const flush = async () => {
    const known = await knownBlobIds(db, batch);
    const orphans = batch.filter((id) => !known.has(id));
    await queueGarbage(db, orphans, now.toISOString());
    queued += orphans.length;
    batch = [];
  };
  for await (const blob of store.list()) {
    if (blob.createdAt.getTime() > cutoff) continue;
    batch.push(blob.id);
    if (batch.length >= 500) await flush();
  }
  if (batch.length > 0) await flush();
  return queued;
}

export type SweepReport = {
  abandonedUploads: number;
  orphanBlobs: number;
  blobsDeleted: number;
  tmpRemoved: number;
};

/** One maintenance pass; `orphans` also walks the whole store (hourly, and at startup). */
export async function runMaintenance(
  db: Db,
  store: BlobStore,
  now: Date,
  opts: { orphans?: boolean } = {},
): Promise<SweepReport> {
  const abandonedUploads = await sweepAbandonedUploads(db, now);
  const tmpRemoved = store.removeIncomplete
    ? await store.removeIncomplete(new Date(now.getTime() - UPLOAD_LEASE_MS))
    : 0;
  const orphanBlobs = opts.orphans ? await sweepOrphanBlobs(db, store, now) : 0;
  const blobsDeleted = await collectGarbage(db, store);
  await deleteExpiredTickets(db, now.toISOString());
  return { abandonedUploads, orphanBlobs, blobsDeleted, tmpRemoved };
}

/** Runs maintenance at startup and every minute (on the feature's clock) until stopped. */
export function startMaintenance(
  db: Db,
  store: BlobStore,
  log: FastifyBaseLogger,
  clock: Clock,
): { stop: () => Promise<void> } {
  let count = 0;
  let current: Promise<unknown> = Promise.resolve();
  const tick = () => {
    const orphans = count % ORPHAN_SWEEP_EVERY === 0;
    count += 1;
    current = runMaintenance(db, store, new Date(clock.now()), { orphans })
      .then((r) => {
        if (r.abandonedUploads || r.orphanBlobs || r.tmpRemoved) log.info(r, 'files maintenance cleaned up');
      })
      .catch((err: unknown) => log.error({ err }, 'files maintenance failed'));
    return current.then(() => {});
  };
  tick();
  // The next pass is armed once this one has settled, so two never run at once.
  const stopBeat = beatOn(clock, SWEEP_INTERVAL_MS, tick);
  return {
    async stop() {
      stopBeat();
      await current;
    },
  };
}

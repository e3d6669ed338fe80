import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { BlobStore } from '../../platform/blob-store/index.ts';
import type { Clock } from '../../platform/feature.ts';
import type { ChunkBufferPool } from '../../platform/transfer/buffer-pool.ts';
import type { HashPool } from '../../platform/transfer/hash-pool.ts';
import type { DownloadSlots } from './download-limits.ts';
import type { UploadFairness, UploadSlots } from './fair-uploads.ts';
import { collectGarbage } from './maintenance.ts';
import type { StorageLimits } from './storage-limits/service.ts';

/** What the files services need: the database, the blob store, limits, buffers, hashing and cleanup. */
export type FilesContext = {
  db: Db;
  store: BlobStore;
  maxUploadBytes: number;
  log: FastifyBaseLogger;
  garbage: GarbageCollector;
  /** Chunk buffers shared by all uploads (bounds upload memory). */
  buffers: ChunkBufferPool;
  /** Page-aligned buffers lent to downloads from local disk (DOWNLOAD_BUFFER_BYTES each). */
  downloadBuffers: ChunkBufferPool;
  hashes: HashPool;
  /** Per-member upload slots and the body timing limits (docs/security.md). */
  fairness: UploadFairness;
  uploadSlots: UploadSlots;
  /** Quotas and the disk reserve (docs/security.md). */
  limits: StorageLimits;
  /** Downloads running per member, per address and in all, and the stalled-reader timeout. */
  downloads: { slots: DownloadSlots; idleTimeoutMs: number };
  /** The feature's clock (the platform's): expiries, windows, sweeps and leases read time from it. */
  clock: Clock;
};

export type GarbageCollector = {
  /** Starts deleting queued blobs in the background (one run at a time). */
  kick(): void;
  /** Resolves once no run is in progress (tests and shutdown). */
  idle(): Promise<void>;
};

export function createGarbageCollector(db: Db, store: BlobStore, log: FastifyBaseLogger): GarbageCollector {
  let running: Promise<void> | null = null;
  let again = false;
  const run = async (): Promise<void> => {
    do {
      again = false;
      await collectGarbage(db, store).catch((err: unknown) =>
        log.error({ err }, 'blob garbage collection failed'),
      );
    } while (again);
  };
  return {
    kick() {
      if (running) {
        again = true;
        return;
      }
      running = run().finally(() => {
        running = null;
      });
    },
    async idle() {
      while (running) await running;
    },
  };
}

import type { Clock } from '../../../platform/feature.ts';
import type { FileHash, HashPool } from '../../../platform/transfer/hash-pool.ts';

/** A resumable upload's file hash kept between its requests, and how many bytes it has been fed. */
type Entry = { hash: FileHash; offset: number; usedAt: number };

/** An entry unused this long is dropped (the upload was abandoned or continues elsewhere); it is rebuilt if needed. */
export const RESUMABLE_HASH_IDLE_MS = 60 * 60_000;

/**
 * The running SHA-256 of each resumable upload in progress, kept on its hash thread between the
 * upload's requests, so each byte is hashed once as it arrives. Node's hashes cannot be saved, so a
 * request that finds none for its offset (after a restart, on another instance, or after a failed
 * store) rebuilds it once by reading back the chunks already stored (each checked by its CRC32C).
 */
export class ResumableHashes {
  private readonly entries = new Map<string, Entry>();
  private readonly pool: HashPool;
  private readonly clock: Clock;
  private readonly idleMs: number;

  constructor(pool: HashPool, clock: Clock, idleMs = RESUMABLE_HASH_IDLE_MS) {
    this.pool = pool;
    this.clock = clock;
    this.idleMs = idleMs;
  }

  /**
   * The hash of upload `id` fed exactly its first `offset` bytes, taken out until `keep` or `forget`.
   * `rebuild` feeds a fresh hash the stored chunks when there is no such hash here.
   */
  async take(id: string, offset: number, rebuild: (hash: FileHash) => Promise<void>): Promise<FileHash> {
    this.sweep();
    const entry = this.entries.get(id);
    this.entries.delete(id);
    if (entry && entry.offset === offset) return entry.hash;
    entry?.hash.drop();
    const hash = this.pool.openFileHash();
    try {
      await rebuild(hash);
    } catch (e) {
      hash.drop();
      throw e;
    }
    return hash;
  }

  /** Puts the hash back, fed exactly the first `offset` bytes of the upload. */
  keep(id: string, hash: FileHash, offset: number): void {
    this.entries.get(id)?.hash.drop();
    this.entries.set(id, { hash, offset, usedAt: this.clock.now() });
  }

  /** Drops the upload's hash (finished, cancelled, or fed bytes that were not stored). */
  forget(id: string, hash?: FileHash): void {
    hash?.drop();
    this.entries.get(id)?.hash.drop();
    this.entries.delete(id);
  }

  /** Hashes held now (tests and metrics). */
  get size(): number {
    return this.entries.size;
  }

  private sweep(): void {
    const before = this.clock.now() - this.idleMs;
    for (const [id, entry] of this.entries) {
      if (entry.usedAt < before) this.forget(id);
    }
  }
}

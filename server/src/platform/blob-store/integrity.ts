import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { crc32c } from '@node-rs/crc32';
import type { ByteRange, ChunkCheck } from './types.ts';

/**
 * Chunk integrity. New chunks carry a CRC32C (Castagnoli, the checksum S3 accepts as
 * `x-amz-checksum-crc32c` and that iSCSI, ext4 and Btrfs use): the CPU computes it in hardware at
 * ≈ 8 GB/s, so checking every read costs almost nothing. Chunks stored before migration 012 carry a
 * SHA-256 instead, checked the same way. The file's own SHA-256 is separate (users compare it with
 * sha256sum); it is computed once, as the file arrives.
 */

/** The CRC32C of `bytes` continuing from `previous` (0 to start), as a number. */
export function crc32cOf(bytes: Uint8Array, previous = 0): number {
  // @node-rs/crc32 accepts any byte view (a Buffer over a SharedArrayBuffer included) without copying.
  return crc32c(bytes as Buffer, previous);
}

/** The stored form of a CRC32C: 8 lower-case hex digits. */
export function crc32cHex(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}

/** What a chunk's recorded check says, for messages ("CRC32C 1a2b3c4d" or "SHA-256 …"). */
function describe(check: ChunkCheck): string {
  return check.crc32c ? `CRC32C ${check.crc32c}` : `SHA-256 ${check.sha256}`;
}

/** A running checksum of the kind the chunk's record holds. */
function runningSum(check: ChunkCheck): { update(b: Uint8Array): void; digest(): string } {
  if (check.crc32c) {
    let crc = 0;
    return {
      update: (b) => {
        crc = crc32cOf(b, crc);
      },
      digest: () => crc32cHex(crc),
    };
  }
  const hash = createHash('sha256');
  return { update: (b) => hash.update(b), digest: () => hash.digest('hex') };
}

export class ChunkCorruptError extends Error {}

/** A blob the database knows is not in its store (deleted by hand, a lost volume, a removed attachment). */
export class BlobMissingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlobMissingError';
  }
}

/** Checks a chunk's bytes fed in order: `verify()` throws ChunkCorruptError unless they were the whole chunk. */
export type ChunkChecker = { update(bytes: Uint8Array): void; verify(what: string): void };

/** A checker for the chunk `check` describes (its size, and its CRC32C or, if older, its SHA-256). */
export function chunkChecker(check: ChunkCheck): ChunkChecker {
  const sum = runningSum(check);
  let seen = 0;
  return {
    update(bytes) {
      sum.update(bytes);
      seen += bytes.length;
    },
    verify(what) {
      const got = sum.digest();
      if (seen !== check.size || got !== (check.crc32c ?? check.sha256)) {
        throw new ChunkCorruptError(
          `Chunk ${what} is corrupt: got ${seen} bytes with ${check.crc32c ? 'CRC32C' : 'SHA-256'} ${got}, expected ${check.size} / ${describe(check)}`,
        );
      }
    },
  };
}

/** Throws ChunkCorruptError unless `bytes` is the whole chunk `check` describes. */
export function checkChunkBytes(bytes: Uint8Array, check: ChunkCheck, what: string): void {
  const checker = chunkChecker(check);
  checker.update(bytes);
  checker.verify(what);
}

/** The part of `bytes`, read at offset `at` of a chunk, that falls inside `range` (null if none does). */
export function withinRange<T extends Uint8Array>(bytes: T, at: number, range: ByteRange): T | null {
  const from = Math.max(range.start - at, 0);
  const to = Math.min(range.end + 1 - at, bytes.length);
  return from < to ? (bytes.subarray(from, to) as T) : null;
}

/**
 * Checks a whole chunk as it passes and fails the stream if its length or checksum differ from the
 * record. The last piece read is held back until the check passes, so a damaged chunk never delivers
 * all its bytes: the client sees a cut-off transfer, never a complete-looking wrong file (which is what
 * a file's last chunk would otherwise be). With `range`, only those bytes of the chunk are passed on
 * (the rest is still read and checked: a checksum covers the chunk whole).
 */
export function verifying(check: ChunkCheck, what: string, range?: ByteRange): Transform {
  const checker = chunkChecker(check);
  let seen = 0;
  let held: Buffer | null = null;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      checker.update(chunk);
      const piece = range ? withinRange(chunk, seen, range) : chunk;
      seen += chunk.length;
      if (!piece) return cb();
      const release = held;
      held = piece;
      cb(null, release ?? undefined);
    },
    flush(cb) {
      try {
        checker.verify(what);
        cb(null, held ?? undefined);
      } catch (e) {
        cb(e as Error);
      }
    },
  });
}

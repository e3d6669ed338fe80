import type { Readable } from 'node:stream';
import type { BlobStore, ByteRange, ChunkCheck } from '../blob-store/index.ts';

/** What a chunk's row records: where its bytes are and what they must be (size, CRC32C, older SHA-256). */
export type RecordedChunk = {
  blob_id: string;
  size: number;
  crc32c?: string | null;
  sha256?: string | null;
};

/** What a chunk's row says its bytes must be, for the store to check on every read. */
export function chunkCheck(c: Pick<RecordedChunk, 'size' | 'crc32c' | 'sha256'>): ChunkCheck {
  return { size: c.size, crc32c: c.crc32c ?? null, sha256: c.sha256 ?? null };
}

/**
 * The verified chunk reader: a stored chunk (whole, or a range of it) read through the blob store and
 * checked against what its row records, so damaged bytes fail the read (ChunkCorruptError) instead of
 * reaching a member, a music stream or a backup. Files, resumable uploads and backups read through it.
 */
export function readChunk(
  store: Pick<BlobStore, 'get'>,
  c: RecordedChunk,
  range?: ByteRange,
): Promise<Readable> {
  return store.get(c.blob_id, range, chunkCheck(c));
}

import type { ChunkCheck } from '../../platform/blob-store/index.ts';
import type { FileChunksTable } from './tables.ts';

/** What a chunk's row says its bytes must be, for the store to check on every read. */
export function chunkCheck(c: Pick<FileChunksTable, 'size' | 'crc32c' | 'sha256'>): ChunkCheck {
  return { size: c.size, crc32c: c.crc32c ?? null, sha256: c.sha256 ?? null };
}

import path from 'node:path';
import { LocalBlobStore } from './local.ts';
import type { BlobStore } from './types.ts';

export { LocalBlobStore } from './local.ts';
export type { BlobId, BlobStore, ByteRange, StoredBlobInfo } from './types.ts';

/** The configured store. Local disk under DATA_DIR/blobs today; S3 and chat-channel stores plug in here. */
export function createBlobStore(config: { dataDir: string }): BlobStore {
  return new LocalBlobStore(path.join(config.dataDir, 'blobs'));
}

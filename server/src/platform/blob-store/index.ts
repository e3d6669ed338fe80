import path from 'node:path';
import type { FilesStoreConfig } from './config.ts';
import { DiscordBlobStore } from './discord.ts';
import { LocalBlobStore } from './local.ts';
import { RoutingBlobStore, type StoreKind } from './routing.ts';
import { S3BlobStore } from './s3.ts';
import type { BlobStore } from './types.ts';

export { allocateDirectBuffer } from './direct-io.ts';
export { DiscordBlobStore, fileThreadGroup, isThreadId } from './discord.ts';
export { StoreUnavailableError, withDeadline } from './errors.ts';
export {
  BlobMissingError,
  type ChunkChecker,
  ChunkCorruptError,
  checkChunkBytes,
  chunkChecker,
  crc32cHex,
  crc32cOf,
  verifying,
  withinRange,
} from './integrity.ts';
export { LocalBlobStore, type LocalStoreOptions } from './local.ts';
export { kindOf, RoutingBlobStore, type StoreKind, threadGarbageId } from './routing.ts';
export { S3BlobStore } from './s3.ts';
export type {
  BlobId,
  BlobReader,
  BlobStore,
  ByteRange,
  ChunkCheck,
  FileScopedStore,
  StoredBlobInfo,
} from './types.ts';

/**
 * The configured stores (FILES_STORE picks where new chunks go): local disk under DATA_DIR/blobs
 * always, an S3 bucket when S3_BUCKET is set, a Discord channel when FILES_DISCORD_CHANNEL_ID and
 * DISCORD_BOT_TOKEN are set. Each stored chunk is read from the store its id names.
 */
export function createBlobStore(config: { dataDir: string; blobStore?: FilesStoreConfig }): RoutingBlobStore {
  // Without a configured store (tests), the local disk with its defaults.
  const files: Pick<FilesStoreConfig, 'store'> & Partial<FilesStoreConfig> = config.blobStore ?? {
    store: 'local',
  };
  const stores: Partial<Record<StoreKind, BlobStore>> = {
    local: new LocalBlobStore(path.join(config.dataDir, 'blobs'), { directWrites: files.directIo }),
  };
  if (files.s3) stores.s3 = new S3BlobStore({ ...files.s3, timeoutMs: files.timeoutMs });
  if (files.discord) stores.discord = new DiscordBlobStore({ ...files.discord, timeoutMs: files.timeoutMs });
  return new RoutingBlobStore(files.store, stores);
}

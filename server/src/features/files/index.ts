/** The shared file system with its share links (portal-tools §7), and what the music library reads of it. */
import path from 'node:path';
import { CHUNK_SIZE_BYTES } from '@guildhall/common';
import type { Config } from '../../config.ts';
import { defineFeature } from '../../platform/feature.ts';
import { ChunkBufferPool } from '../../platform/transfer/buffer-pool.ts';
import { DOWNLOAD_BUFFER_BYTES } from '../../platform/transfer/direct-send.ts';
import { type ArchiveSender, createArchiveSender } from './archive/send.ts';
import type { FilesFeatureConfig } from './config.ts';
import { createGarbageCollector, type FilesContext } from './context.ts';
import { DownloadSlots } from './download-limits.ts';
import { UploadSlots } from './fair-uploads.ts';
import { startMaintenance } from './maintenance.ts';
import { ChunkTusStore } from './resumable/tus-store.ts';
import { filesRoutes } from './routes.ts';
import { createThumbnails, type Thumbnails } from './thumbnails/service.ts';
import { startTrashPurge } from './trash/purge.ts';

export {
  findLibraryFile,
  type LibraryFile,
  listLibraryFolderFiles,
  openLibraryFile,
  searchLibraryFiles,
} from './library.ts';
export { collectGarbage } from './maintenance.ts';
export { findOwnFilesByName, type ShareMember, shareOwnFile } from './shares/member-shares.ts';
export { migrateStorage, verifyStorage } from './storage-migration.ts';
export type { FilesTables } from './tables.ts';
/** The ffmpeg arguments of a video poster (the container test runs them with the image's own ffmpeg). */
export { posterFrameArgs } from './thumbnails/video.ts';

/** At most this many 8 MiB chunk buffers exist at once (96 MiB), whatever the number of uploads. */
const MAX_CHUNK_BUFFERS = 12;
/** Downloads at once that read straight from disk into pooled, page-aligned buffers. */
const MAX_DOWNLOAD_BUFFERS = 16;

type FilesState = {
  files: FilesContext;
  thumbnails: Thumbnails;
  sendArchive: ArchiveSender;
  tusStore: ChunkTusStore;
  maintenance: ReturnType<typeof startMaintenance> | null;
  trashPurge: ReturnType<typeof startTrashPurge> | null;
};

/** The files feature's slice of the configuration (files/config.ts `FilesFeatureConfig` says why each). */
function filesSlice(c: Config): FilesFeatureConfig {
  return {
    ...c.files,
    dataDir: c.dataDir,
    blobStore: c.blobStore.store,
    publicUrl: c.publicUrl,
    webDistDir: c.webDistDir,
    trustProxy: c.trustProxy,
    ffmpegPath: c.tools.ffmpegPath,
  };
}

/**
 * The files feature on the platform's one blob store: its services are built here once, the
 * maintenance sweep and the hash threads start with the app and stop before the store closes.
 */
export const filesFeature = defineFeature<FilesState, FilesFeatureConfig>({
  name: 'files',
  config: filesSlice,
  setup: ({ db, config, log, blobStore, hashes, processes, clock }) => {
    const files: FilesContext = {
      db,
      store: blobStore,
      maxUploadBytes: config.maxUploadBytes,
      log,
      garbage: createGarbageCollector(db, blobStore, log),
      // Three kept free: what one upload cycles through, so a steady upload never reallocates.
      buffers: new ChunkBufferPool(CHUNK_SIZE_BYTES, MAX_CHUNK_BUFFERS, 3),
      // 6 MiB each; downloads past these read through the page cache into buffers of their own.
      downloadBuffers: new ChunkBufferPool(DOWNLOAD_BUFFER_BYTES, MAX_DOWNLOAD_BUFFERS, 2),
      hashes, // the platform's, which ends its threads when the app closes
      fairness: config.uploads,
      uploadSlots: new UploadSlots(config.uploads.uploadsPerUser),
      limits: {
        defaultQuotaBytes: config.storage.quotaBytes ?? null,
        reserveBytes: config.storage.reserveBytes,
        // The reserve guards the disk the local store writes to; remote stores have their own limits.
        localBlobDir: config.blobStore === 'local' ? path.join(config.dataDir, 'blobs') : null,
        resumablePerUser: config.storage.resumablePerUser,
        unrecorded: { bytes: 0 },
      },
      downloads: {
        slots: new DownloadSlots(config.downloads),
        idleTimeoutMs: config.downloads.idleTimeoutMs,
      },
      clock,
    };
    return {
      maintenance: null,
      trashPurge: null,
      thumbnails: createThumbnails({
        db,
        store: blobStore,
        ffmpegPath: config.ffmpegPath,
        processes,
        log,
        clock,
      }),
      files,
      // ZIPs of selections and folder shares; the tus chunk store of members' and guests' uploads.
      sendArchive: createArchiveSender(files),
      tusStore: new ChunkTusStore(files),
    };
  },
  routes: ({ config }, { files, thumbnails, sendArchive, tusStore }) =>
    filesRoutes(files, config, thumbnails, { sendArchive, tusStore }),
  start: ({ db, blobStore, log }, state) => {
    state.maintenance = startMaintenance(db, blobStore, log, state.files.clock);
    state.trashPurge = startTrashPurge(state.files, log);
    state.files.hashes.warmUp(); // a fixed cost at start (two small threads), not during the first upload
  },
  stop: async (_ctx, state) => {
    await state.maintenance?.stop();
    state.maintenance = null;
    await state.trashPurge?.stop();
    state.trashPurge = null;
    await state.thumbnails.close();
    await state.files.garbage.idle();
    // Nobody waits for a buffer past the stop; the hash threads are the platform's (closed after this).
    state.files.buffers.close();
    state.files.downloadBuffers.close();
  },
});

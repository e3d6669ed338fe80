import { SECURITY_DEFAULTS } from '@guildhall/common';
import { type EnvOf, nonNegativeInt, positiveInt } from '../../platform/config/env.ts';
import type { DownloadLimits } from './download-limits.ts';

/**
 * The files feature's variables (docs/files.md, docs/security.md); config.ts adds them to the one
 * environment schema. Where chunks are stored (FILES_STORE, S3_*) is the platform's blob store's.
 */
export const filesEnv = {
  MAX_UPLOAD_BYTES: positiveInt('MAX_UPLOAD_BYTES').default(4 * 1024 * 1024 * 1024),
  // Security hardening (docs/security.md).
  UPLOADS_PER_USER: positiveInt('UPLOADS_PER_USER').default(SECURITY_DEFAULTS.uploadsPerUser),
  UPLOAD_IDLE_TIMEOUT_MS: positiveInt('UPLOAD_IDLE_TIMEOUT_MS').default(
    SECURITY_DEFAULTS.uploadIdleTimeoutMs,
  ),
  UPLOAD_MIN_BYTES_PER_SECOND: nonNegativeInt('UPLOAD_MIN_BYTES_PER_SECOND').default(
    SECURITY_DEFAULTS.uploadMinBytesPerSecond,
  ),
  UPLOAD_RATE_WINDOW_MS: positiveInt('UPLOAD_RATE_WINDOW_MS').default(SECURITY_DEFAULTS.uploadRateWindowMs),
  UPLOAD_BUFFER_WAIT_MS: positiveInt('UPLOAD_BUFFER_WAIT_MS').default(SECURITY_DEFAULTS.uploadBufferWaitMs),
  STORAGE_QUOTA_BYTES: positiveInt('STORAGE_QUOTA_BYTES').optional(),
  STORAGE_RESERVE_BYTES: nonNegativeInt('STORAGE_RESERVE_BYTES').default(
    SECURITY_DEFAULTS.storageReserveBytes,
  ),
  // Fair downloads and resumable-upload caps (docs/security.md, issue 26).
  RESUMABLE_UPLOADS_PER_USER: positiveInt('RESUMABLE_UPLOADS_PER_USER').default(
    SECURITY_DEFAULTS.resumableUploadsPerUser,
  ),
  DOWNLOADS_PER_USER: positiveInt('DOWNLOADS_PER_USER').default(SECURITY_DEFAULTS.downloadsPerUser),
  DOWNLOADS_PER_ADDRESS: positiveInt('DOWNLOADS_PER_ADDRESS').default(SECURITY_DEFAULTS.downloadsPerAddress),
  DOWNLOADS_MAX: positiveInt('DOWNLOADS_MAX').default(SECURITY_DEFAULTS.downloadsMax),
  DOWNLOAD_IDLE_TIMEOUT_MS: positiveInt('DOWNLOAD_IDLE_TIMEOUT_MS').default(
    SECURITY_DEFAULTS.downloadIdleTimeoutMs,
  ),
  DOWNLOADS_QUEUED_PER_USER: nonNegativeInt('DOWNLOADS_QUEUED_PER_USER').default(
    SECURITY_DEFAULTS.downloadsQueuedPerUser,
  ),
  DOWNLOAD_QUEUE_WAIT_MS: positiveInt('DOWNLOAD_QUEUE_WAIT_MS').default(
    SECURITY_DEFAULTS.downloadQueueWaitMs,
  ),
};

/** The files feature's own settings. */
export type FilesConfig = {
  maxUploadBytes: number;
  /** Fair uploads: per-member concurrency and body timing (docs/security.md). */
  uploads: {
    uploadsPerUser: number;
    idleTimeoutMs: number;
    minBytesPerSecond: number;
    rateWindowMs: number;
    bufferWaitMs: number;
  };
  /** Per-member quota (default for members without their own) and the free space kept on the blob disk. */
  storage: { quotaBytes?: number; reserveBytes: number; resumablePerUser: number };
  /**
   * Fair downloads: concurrency per member, per address and in all, the stalled-reader timeout, and how
   * many of a member's downloads may wait for a slot, for how long.
   */
  downloads: DownloadLimits;
};

/**
 * What the feature's context holds: its own settings plus the process-wide values it needs (index.ts
 * `filesSlice` picks them): the data directory and which store new chunks go to (the storage reserve
 * guards the local disk), the public address and proxy trust (share links), and the ffmpeg binary
 * (video posters; FFMPEG_PATH, declared with the music feature's tools).
 */
export type FilesFeatureConfig = FilesConfig & {
  dataDir: string;
  blobStore: 'local' | 's3' | 'discord';
  publicUrl?: string;
  /** The built web app: a share's page is its index.html with the share's link-preview tags. */
  webDistDir: string;
  trustProxy: boolean | number | string[];
  ffmpegPath: string;
};

export function filesConfig(e: EnvOf<typeof filesEnv>): FilesConfig {
  return {
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    uploads: {
      uploadsPerUser: e.UPLOADS_PER_USER,
      idleTimeoutMs: e.UPLOAD_IDLE_TIMEOUT_MS,
      minBytesPerSecond: e.UPLOAD_MIN_BYTES_PER_SECOND,
      rateWindowMs: e.UPLOAD_RATE_WINDOW_MS,
      bufferWaitMs: e.UPLOAD_BUFFER_WAIT_MS,
    },
    storage: {
      quotaBytes: e.STORAGE_QUOTA_BYTES,
      reserveBytes: e.STORAGE_RESERVE_BYTES,
      resumablePerUser: e.RESUMABLE_UPLOADS_PER_USER,
    },
    downloads: {
      perUser: e.DOWNLOADS_PER_USER,
      perAddress: e.DOWNLOADS_PER_ADDRESS,
      max: e.DOWNLOADS_MAX,
      idleTimeoutMs: e.DOWNLOAD_IDLE_TIMEOUT_MS,
      queuedPerUser: e.DOWNLOADS_QUEUED_PER_USER,
      queueWaitMs: e.DOWNLOAD_QUEUE_WAIT_MS,
    },
  };
}

import { SECURITY_DEFAULTS } from '@guildhall/common';
import { defineConfig, type SliceOf } from '../../platform/config/define.ts';
import { nonNegativeInt, positiveInt } from '../../platform/config/env.ts';

/**
 * What the feature's context holds: its own settings plus the process-wide values it needs (index.ts
 * `filesSlice` picks them): the data directory and which store new chunks go to (the storage reserve
 * guards the local disk), the public address and proxy trust (share links), and the ffmpeg binary
 * (video posters; FFMPEG_PATH, the platform's `tools`).
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

/**
 * The files feature's variables (docs/files.md, docs/security.md): `config.files`. Where chunks are
 * stored (FILES_STORE, S3_*) is the platform's blob store's (`config.blobStore`).
 */
export const filesConfig = defineConfig({
  title: 'Files: uploads, downloads and storage limits (docs/files.md, docs/security.md)',
  vars: {
    MAX_UPLOAD_BYTES: {
      field: 'maxUploadBytes',
      schema: positiveInt('MAX_UPLOAD_BYTES').default(4 * 1024 * 1024 * 1024),
      doc: 'largest accepted upload; enforced while streaming',
      shownDefault: '`4294967296` (4 GiB)',
    },
    // Fair uploads: per-member concurrency and body timing (docs/security.md).
    UPLOADS_PER_USER: {
      field: 'uploads.uploadsPerUser',
      schema: positiveInt('UPLOADS_PER_USER').default(SECURITY_DEFAULTS.uploadsPerUser),
      doc: 'uploads one member may have in flight at once (more answer 429) ([docs/security.md](docs/security.md))',
    },
    UPLOAD_IDLE_TIMEOUT_MS: {
      field: 'uploads.idleTimeoutMs',
      schema: positiveInt('UPLOAD_IDLE_TIMEOUT_MS').default(SECURITY_DEFAULTS.uploadIdleTimeoutMs),
      doc: 'an upload body that sends nothing this long is dropped and cleaned up',
    },
    UPLOAD_MIN_BYTES_PER_SECOND: {
      field: 'uploads.minBytesPerSecond',
      schema: nonNegativeInt('UPLOAD_MIN_BYTES_PER_SECOND').default(
        SECURITY_DEFAULTS.uploadMinBytesPerSecond,
      ),
      doc: 'an upload body slower than this over `UPLOAD_RATE_WINDOW_MS` is dropped (`0` turns the rate check off)',
    },
    UPLOAD_RATE_WINDOW_MS: {
      field: 'uploads.rateWindowMs',
      schema: positiveInt('UPLOAD_RATE_WINDOW_MS').default(SECURITY_DEFAULTS.uploadRateWindowMs),
      doc: 'the window `UPLOAD_MIN_BYTES_PER_SECOND` is measured over',
    },
    UPLOAD_BUFFER_WAIT_MS: {
      field: 'uploads.bufferWaitMs',
      schema: positiveInt('UPLOAD_BUFFER_WAIT_MS').default(SECURITY_DEFAULTS.uploadBufferWaitMs),
      doc: 'how long an upload waits for a shared chunk buffer before answering 503 with Retry-After',
    },
    STORAGE_QUOTA_BYTES: {
      field: 'storage.quotaBytes',
      schema: positiveInt('STORAGE_QUOTA_BYTES').optional(),
      doc: "each member's default storage quota; admins set their own per member in the admin panel",
      shownDefault: '— (no quota)',
      example: '10737418240',
    },
    STORAGE_RESERVE_BYTES: {
      field: 'storage.reserveBytes',
      schema: nonNegativeInt('STORAGE_RESERVE_BYTES').default(SECURITY_DEFAULTS.storageReserveBytes),
      doc: "free space always kept on the local store's disk; uploads that would cross it answer 507",
      shownDefault: '`536870912` (512 MiB)',
    },
    // Resumable-upload caps and fair downloads: concurrency per member, per address and in all, the
    // stalled-reader timeout, how many of a member's downloads may wait for a slot and how long
    // (docs/security.md, issue 26; `downloads` is download-limits.ts's DownloadLimits).
    RESUMABLE_UPLOADS_PER_USER: {
      field: 'storage.resumablePerUser',
      schema: positiveInt('RESUMABLE_UPLOADS_PER_USER').default(SECURITY_DEFAULTS.resumableUploadsPerUser),
      doc: 'unfinished resumable uploads one member may have open (their declared sizes count until they finish or expire); more answer 429',
    },
    DOWNLOADS_PER_USER: {
      field: 'downloads.perUser',
      schema: positiveInt('DOWNLOADS_PER_USER').default(SECURITY_DEFAULTS.downloadsPerUser),
      doc: 'downloads (files and ZIPs) one member may run at once; the next ones wait for a slot (`DOWNLOADS_QUEUED_PER_USER`) ([docs/security.md](docs/security.md))',
    },
    DOWNLOADS_PER_ADDRESS: {
      field: 'downloads.perAddress',
      schema: positiveInt('DOWNLOADS_PER_ADDRESS').default(SECURITY_DEFAULTS.downloadsPerAddress),
      doc: "downloads one client address may run at once; a stranger's next ones answer 429 with Retry-After",
    },
    DOWNLOADS_MAX: {
      field: 'downloads.max',
      schema: positiveInt('DOWNLOADS_MAX').default(SECURITY_DEFAULTS.downloadsMax),
      doc: 'downloads running at once on an instance; more answer 503 with Retry-After (bounds the memory downloads hold)',
    },
    DOWNLOAD_IDLE_TIMEOUT_MS: {
      field: 'downloads.idleTimeoutMs',
      schema: positiveInt('DOWNLOAD_IDLE_TIMEOUT_MS').default(SECURITY_DEFAULTS.downloadIdleTimeoutMs),
      doc: 'a download whose client takes nothing for this long is dropped and its buffers freed',
    },
    DOWNLOADS_QUEUED_PER_USER: {
      field: 'downloads.queuedPerUser',
      schema: nonNegativeInt('DOWNLOADS_QUEUED_PER_USER').default(SECURITY_DEFAULTS.downloadsQueuedPerUser),
      doc: "a member's downloads past their share that wait (holding only a connection) for one of theirs to end; beyond it, 429 with Retry-After (`0` queues none)",
    },
    DOWNLOAD_QUEUE_WAIT_MS: {
      field: 'downloads.queueWaitMs',
      schema: positiveInt('DOWNLOAD_QUEUE_WAIT_MS').default(SECURITY_DEFAULTS.downloadQueueWaitMs),
      doc: 'how long a waiting download waits for a slot before 429 with Retry-After',
    },
  },
});

/**
 * The files feature's own settings (`config.files`): `maxUploadBytes`, `uploads` (fair uploads),
 * `storage` (quota, the free space kept on the blob disk, resumable caps), `downloads` (fair downloads).
 */
export type FilesConfig = SliceOf<typeof filesConfig>;

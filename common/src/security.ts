import { z } from 'zod';

/**
 * Limits and texts of the security controls (docs/security.md). The server reads its configured values
 * from the environment; these are the defaults and the messages both sides and the tests share.
 */
export const SECURITY_DEFAULTS = {
  /** Uploads (spec `POST /upload` and tus PATCH/POST bodies) one member may have in flight at once. */
  uploadsPerUser: 3,
  /** An upload body that sends nothing for this long is dropped. */
  uploadIdleTimeoutMs: 30_000,
  /** …or that averages under this rate over `uploadRateWindowMs` of waiting for the client. */
  uploadMinBytesPerSecond: 1024,
  uploadRateWindowMs: 60_000,
  /** How long an upload waits for a shared chunk buffer before answering 503 with Retry-After. */
  uploadBufferWaitMs: 10_000,
  /** Free space always kept on the local store's disk (the database, logs and the OS need it). */
  storageReserveBytes: 512 * 1024 * 1024,
  /** Unfinished resumable (tus) uploads one member may have open; their declared sizes count meanwhile. */
  resumableUploadsPerUser: 20,
  /** Downloads one member may have running at once (a browser opens up to 6 connections per host). */
  downloadsPerUser: 6,
  /** Downloads one client address may have running at once (a few members behind one NAT). */
  downloadsPerAddress: 8,
  /** Downloads running at once on an instance, whoever asks (bounds the memory downloads hold). */
  downloadsMax: 64,
  /** A download whose client takes nothing for this long is dropped and its buffers freed. */
  downloadIdleTimeoutMs: 60_000,
  /**
   * A member's downloads past `downloadsPerUser` that wait for one of theirs to end (a bulk download over
   * one HTTP/2 connection asks for them all at once); beyond, 429.
   */
  downloadsQueuedPerUser: 32,
  /** How long such a download waits for its slot before 429 (it holds a socket, nothing else). */
  downloadQueueWaitMs: 10 * 60_000,
} as const;

/** Seconds a 429 or 503 for too many downloads asks the client to wait before trying again. */
export const DOWNLOADS_RETRY_AFTER_SECONDS = 10;

/** Seconds a 503 for a full buffer pool asks the client to wait before trying again. */
export const UPLOAD_BUSY_RETRY_AFTER_SECONDS = 5;

export const securityTexts = {
  tooManyUploads: (limit: number) =>
    `You already have ${limit} uploads in progress; wait for one to finish before starting another`,
  uploadTooSlow: 'The upload was too slow or stalled and was dropped; try again',
  uploadBusy: 'The server is busy receiving other uploads; try again in a few seconds',
  quotaExceeded: (quota: string) =>
    `Storage quota exceeded: your files may use at most ${quota}; delete some files or ask an admin for more room`,
  diskFull: 'The server is out of storage space for uploads; ask an admin to free some room',
  tooManyResumableUploads: (limit: number) =>
    `You already have ${limit} unfinished uploads; finish or cancel one before starting another (unfinished uploads expire after a day)`,
  tooManyDownloads: (limit: number) =>
    `Too many downloads at once (at most ${limit}); wait for one to finish and try again`,
  downloadsBusy: 'The server is busy sending other downloads; try again in a few seconds',
} as const;

/** What a member has stored and may store (GET /api/files/usage; the files header shows it). */
export const StorageUsage = z.object({
  usedBytes: z.number().int().nonnegative(),
  /** null: no limit. */
  quotaBytes: z.number().int().positive().nullable(),
});
export type StorageUsage = z.infer<typeof StorageUsage>;
export const StorageUsageResponse = z.object({ success: z.literal(true), data: StorageUsage });

/** One member's storage in the admin panel. */
export const AdminStorageEntry = StorageUsage.extend({
  userId: z.string(),
  username: z.string(),
  /** True when an admin set this member's quota; false when the default (STORAGE_QUOTA_BYTES) applies. */
  customQuota: z.boolean(),
});
export type AdminStorageEntry = z.infer<typeof AdminStorageEntry>;
export const AdminStorageResponse = z.object({
  success: z.literal(true),
  data: z.array(AdminStorageEntry),
  defaultQuotaBytes: z.number().int().positive().nullable(),
});

export const StorageQuotaParams = z.object({
  userId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'userId is not a valid user id' }),
});
/** PUT /api/admin/storage/:userId: a quota in bytes, or null to go back to the default. */
export const StorageQuotaBody = z.object(
  {
    quotaBytes: z
      .number({ error: 'quotaBytes must be a number of bytes or null' })
      .int({ error: 'quotaBytes must be a whole number of bytes' })
      .positive({ error: 'quotaBytes must be positive' })
      .max(Number.MAX_SAFE_INTEGER, { error: 'quotaBytes is too large' })
      .nullable(),
  },
  { error: 'Send {"quotaBytes": <bytes> | null}' },
);
export const StorageQuotaResponse = z.object({ success: z.literal(true), data: AdminStorageEntry });

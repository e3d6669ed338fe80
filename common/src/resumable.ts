import { z } from 'zod';
import { ApiError } from './api.ts';
import { UploadIdParams } from './files.ts';

/**
 * Resumable uploads (tus 1.0.0, docs/files.md "Resumable uploads"): the web page's way to upload, beside
 * the spec's POST /upload, which stays for API clients. A finished tus upload is completed with the
 * spec's POST /upload/complete like any other.
 */
export const RESUMABLE_UPLOAD_PATH = '/upload/resumable';
export const TUS_VERSION = '1.0.0';
/** The browser sends one chunk per request, so a dropped connection costs at most one chunk. */
export { CHUNK_SIZE_BYTES as RESUMABLE_REQUEST_BYTES } from './files.ts';
/** Waits before each retry after a dropped connection (ms); the upload card says "Reconnecting…" meanwhile. */
export const RESUMABLE_RETRY_DELAYS_MS = [1000, 3000, 5000, 10000, 20000, 30000] as const;
export const RECONNECTING_TEXT = 'Reconnecting…';

export const ResumableUploadParams = UploadIdParams;
/** tus answers have no body (201 with Location, 204 with Upload-Offset, 200 HEAD); errors use the envelope. */
export const ResumableResponses = {
  200: z.null(),
  201: z.null(),
  204: z.null(),
  400: ApiError,
  404: ApiError,
  409: ApiError,
  412: ApiError,
  413: ApiError,
  415: ApiError,
} as const;

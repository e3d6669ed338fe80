import { z } from 'zod';
import { formatFileSize } from './files.ts';
import { SHARE_PASSWORD_MAX_CHARS, SHARE_PASSWORD_MIN_CHARS } from './files-manager.ts';
import { ShareNote, ShareTitle } from './share-links.ts';

/**
 * Upload requests (issue 45, "reverse shares"): a member's link that lets anyone who has it upload into
 * one of the member's folders, within limits the member sets. Guests upload with tus like members do
 * (docs/files.md, "Upload requests"); every byte counts against the owner's quota.
 */

/** The guest page in the web app: `/request/{token}` (no sign-in). */
export const UPLOAD_REQUEST_PAGE_PATH = '/request';
/** The tus endpoint of one request: `POST /api/requests/{token}/uploads`, then `…/uploads/{fileId}`. */
export const uploadRequestTusPath = (token: string) => `/api/requests/${token}/uploads`;

/** The largest total a request may allow (a bound; the owner's quota still applies). */
export const UPLOAD_REQUEST_MAX_TOTAL_BYTES = 100 * 1024 ** 3;
export const UPLOAD_REQUEST_MAX_FILES = 1000;
/** Allowed types: at most this many entries, each an extension (`.pdf`) or a MIME pattern (`image/*`). */
export const UPLOAD_REQUEST_MAX_TYPES = 20;
/** A request lives at most this long (it must expire: a forgotten open drop box is an abuse magnet). */
export const UPLOAD_REQUEST_MAX_DAYS = 90;
/** Open (not closed, not expired) requests one member may have. */
export const UPLOAD_REQUESTS_PER_MEMBER = 20;
/** Requests one member may create per hour (then 429). */
export const UPLOAD_REQUEST_CREATES_PER_HOUR = 30;
/** Guest uploads one address may start per hour, over all requests (then 429). */
export const GUEST_UPLOADS_PER_ADDRESS_PER_HOUR = 60;
/** Guest uploads of one request that may be under way at once (then 429). */
export const GUEST_UPLOADS_OPEN_PER_REQUEST = 3;

export const UPLOAD_REQUEST_STATES = ['open', 'closed', 'expired', 'full'] as const;
export type UploadRequestState = (typeof UPLOAD_REQUEST_STATES)[number];

export const UPLOAD_REQUEST_TEXTS = {
  title: 'Upload requests',
  create: 'Create upload link',
  created: 'Upload link created',
  close: 'Close link',
  closed: 'Upload link closed',
  stateLabels: { open: 'Open', closed: 'Closed', expired: 'Expired', full: 'Full' },
  notFound: 'This upload link has expired, been closed, or never existed',
  notFoundTitle: 'Upload link not available',
  guestHeading: 'Send files',
  guestDrop: 'Choose files to send',
  guestPrivacy: 'You only see what you send here; nothing else in the folder is shown.',
  receiptTitle: 'Received',
  /** The server's message when a file would pass the request's total size. */
  totalExceeded: (maxBytes: number, leftBytes: number) =>
    `This upload link takes at most ${formatFileSize(maxBytes)} in all; ${formatFileSize(leftBytes)} left`,
  filesExceeded: (maxFiles: number) =>
    maxFiles === 1
      ? 'This upload link takes one file only'
      : `This upload link takes at most ${maxFiles} files`,
  typeRefused: (types: string[]) => `This upload link takes only ${types.join(', ')}`,
  tooMany: `You have ${UPLOAD_REQUESTS_PER_MEMBER} open upload links; close one first`,
  tooManyOpen: `This upload link takes ${GUEST_UPLOADS_OPEN_PER_REQUEST} uploads at a time; wait for one to finish`,
  tooManyFromAddress: (seconds: number) =>
    `Too many uploads from your address to upload links; try again in ${seconds} s`,
  folderNotYours: 'An upload link can only point at one of your own folders',
  noNotice: 'Tell me when a file arrives',
} as const;

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** `.pdf`, `.tar.gz` or a MIME type/pattern such as `image/*`, `application/pdf`. */
const TYPE = /^(\.[a-z0-9][a-z0-9.+_-]{0,15}|[a-z]+\/(\*|[a-z0-9][a-z0-9.+_-]{0,63}))$/;

export const UploadRequestCreateBody = z.object({
  folderId: z.string({ error: 'folderId must be a string' }).regex(/^[A-Za-z0-9_-]{1,64}$/, {
    error: 'folderId is not a valid id',
  }),
  title: ShareTitle.optional(),
  note: ShareNote.optional(),
  maxTotalBytes: z
    .number({ error: 'maxTotalBytes must be a number' })
    .int({ error: 'maxTotalBytes must be an integer' })
    .min(1, { error: 'maxTotalBytes must be at least 1' })
    .max(UPLOAD_REQUEST_MAX_TOTAL_BYTES, {
      error: `maxTotalBytes must be at most ${UPLOAD_REQUEST_MAX_TOTAL_BYTES}`,
    }),
  maxFiles: z
    .number({ error: 'maxFiles must be a number' })
    .int({ error: 'maxFiles must be an integer' })
    .min(1, { error: 'maxFiles must be at least 1' })
    .max(UPLOAD_REQUEST_MAX_FILES, { error: `maxFiles must be at most ${UPLOAD_REQUEST_MAX_FILES}` }),
  /** Empty or absent: any type. Compared with the file's name (extensions) and declared type (MIME). */
  allowedTypes: z
    .array(
      z
        .string({ error: 'allowedTypes must be strings' })
        .trim()
        .toLowerCase()
        .refine((v) => !CONTROL.test(v) && TYPE.test(v), {
          error: 'each allowed type is an extension like .pdf or a type like image/*',
        }),
      { error: 'allowedTypes must be a list' },
    )
    .max(UPLOAD_REQUEST_MAX_TYPES, { error: `at most ${UPLOAD_REQUEST_MAX_TYPES} allowed types` })
    .optional(),
  expiresAt: z.iso.datetime({ offset: true, error: 'expiresAt must be an ISO timestamp' }),
  password: z
    .string({ error: 'password must be a string' })
    .max(SHARE_PASSWORD_MAX_CHARS, {
      error: `password must be at most ${SHARE_PASSWORD_MAX_CHARS} characters`,
    })
    .refine((v) => v === '' || v.length >= SHARE_PASSWORD_MIN_CHARS, {
      error: `password must be at least ${SHARE_PASSWORD_MIN_CHARS} characters`,
    })
    .optional(),
  /** A notice (portal, and Discord DM if allowed) for each file received. */
  notify: z.boolean({ error: 'notify must be true or false' }).optional(),
});
export type UploadRequestCreateBody = z.infer<typeof UploadRequestCreateBody>;

export const UploadRequest = z.object({
  id: z.string(),
  token: z.string(),
  url: z.string(),
  folderId: z.string(),
  folderName: z.string().nullable(),
  title: z.string().nullable(),
  note: z.string().nullable(),
  maxTotalBytes: z.number(),
  maxFiles: z.number(),
  allowedTypes: z.array(z.string()),
  expiresAt: z.string(),
  hasPassword: z.boolean(),
  notify: z.boolean(),
  createdAt: z.string(),
  closedAt: z.string().nullable(),
  filesReceived: z.number(),
  bytesReceived: z.number(),
  state: z.enum(UPLOAD_REQUEST_STATES),
});
export type UploadRequest = z.infer<typeof UploadRequest>;

export const UploadRequestResponse = z.object({ success: z.literal(true), data: UploadRequest });
export const UploadRequestsListResponse = z.object({
  success: z.literal(true),
  data: z.array(UploadRequest),
});
export const UploadRequestIdParams = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'id is not a valid id' }),
});
export const UploadRequestTokenParams = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, { error: 'token is not a valid link token' }),
});
export const GuestUploadParams = UploadRequestTokenParams.extend({
  fileId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'fileId is not a valid id' }),
});

/** What a guest sees of a request: its texts and limits, never the folder or its files. */
export const UploadRequestGuestInfo = z.object({
  title: z.string().nullable(),
  note: z.string().nullable(),
  ownerName: z.string(),
  maxTotalBytes: z.number(),
  maxFiles: z.number(),
  allowedTypes: z.array(z.string()),
  expiresAt: z.string(),
  bytesLeft: z.number(),
  filesLeft: z.number(),
});
export type UploadRequestGuestInfo = z.infer<typeof UploadRequestGuestInfo>;
export const UploadRequestGuestInfoResponse = z.object({
  success: z.literal(true),
  data: UploadRequestGuestInfo,
});

/** The guest's receipt for one file: what arrived, checked (SHA-256), and when. */
export const GuestUploadReceipt = z.object({
  name: z.string(),
  size: z.number(),
  sha256: z.string(),
  receivedAt: z.string(),
});
export type GuestUploadReceipt = z.infer<typeof GuestUploadReceipt>;
export const GuestUploadReceiptResponse = z.object({ success: z.literal(true), data: GuestUploadReceipt });

/** Whether a file of this name and declared type is one the request takes (empty list: any). */
export function isTypeAllowed(allowed: readonly string[], name: string, mime: string | undefined): boolean {
  if (allowed.length === 0) return true;
  const lower = name.toLowerCase();
  const type = (mime ?? '').toLowerCase();
  return allowed.some((a) => {
    if (a.startsWith('.')) return lower.endsWith(a);
    if (a.endsWith('/*')) return type.startsWith(a.slice(0, -1));
    return type === a;
  });
}

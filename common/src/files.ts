import { z } from 'zod';
import { SHARE_STATES, ShareMaxDownloads, ShareNote, ShareTitle } from './share-links.ts';

/**
 * Shared File System and shared-link page (portal-tools §2–§9): constants, verbatim texts, request and
 * response schemas, and the pure helpers both sides use.
 */

// ---- Constants (portal-tools §9, plus our own limits documented in docs/files.md) ----

/** Files are stored as chunks of 8 MiB. */
export const CHUNK_SIZE_BYTES = 8 * 1024 * 1024;
export const UPLOAD_STATUS_POLL_MS = 800;
export const UPLOAD_STATUS_MAX_ATTEMPTS = 60;
export const UPLOAD_STATUS_RETRY_MS = 1000;
/** Upload progress milestones: request sent, server accepted, server progress mapped onto 35–95, done. */
export const UPLOAD_PROGRESS = { sent: 15, accepted: 35, processingEnd: 95, done: 100 } as const;
export const UPLOAD_REFRESH_DELAY_MS = 1500;
export const UPLOAD_CARD_REMOVE_MS = 3000;
export const BULK_DOWNLOAD_GAP_MS = 500;
export const DOWNLOAD_CARD_SUCCESS_MS = 3000;
export const DOWNLOAD_CARD_ERROR_MS = 5000;
export const FILES_TOAST_MS = 5000;
export const SHARE_TOAST_MS = 3000;
export const SHARED_PAGE_TOAST_MS = 3000;
export const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;

export const NAME_MAX_CHARS = 255;
export const CATEGORY_MAX_CHARS = 50;
export const DEFAULT_CATEGORY = 'uncategorized';
export const ROOT_FOLDER_LABEL = '~/shared';
/** How deep folders may nest (our limit; keeps breadcrumbs and recursive deletes bounded). */
export const MAX_FOLDER_DEPTH = 32;
/** Derived display values (portal-tools §3). */
export const DISPLAY_OWNER = 'System';
export const DISPLAY_PERMISSION = 'read-write';

export const SHARE_ACCESS_LEVELS = ['user', 'public'] as const;
export type ShareAccessLevel = (typeof SHARE_ACCESS_LEVELS)[number];

// ---- Texts fixed by the spec (portal-tools §2, §4, §5, §6, §8) ----

export const FILES_TEXTS = {
  noFilesFound: 'No files found',
  uploadFiles: 'Upload Files',
  folderNameRequired: 'Please enter a folder name',
  selectOnlyOneFile: 'Please select only one file to share',
  selectAFile: 'Please select a file to share',
  processingFile: 'Processing file...',
  uploadingChunks: 'Uploading chunks...',
  finalizingUpload: 'Finalizing upload...',
  uploadTimeout: 'Upload timeout - chunks may still be processing. Please check files list in a moment.',
  uploadFailedToast: 'Upload failed',
  downloadFailedToast: 'Download failed',
  deleteFailed: 'Delete failed',
  bulkDeleteFailed: 'Bulk delete failed',
  createFolderFailed: 'Failed to create folder',
  loadFilesFailed: 'Failed to load files',
  createShareFailed: 'Failed to create share',
  copyLinkFailed: 'Failed to copy link',
  deleteShareFailed: 'Failed to delete share',
  expired: 'Expired',
  createShareTab: 'Create Share',
  existingSharesTab: 'Existing Shares',
  createNewFolder: 'Create New Folder',
  shareFile: 'Share File',
  // shared-link page
  loginRequired: 'Login Required',
  loginRequiredBody: 'This file is shared with users only. Please log in to access it.',
  fileNotFound: 'File Not Found',
  fileNotFoundBody: 'This shared file link has expired, been revoked, or never existed.',
  downloadStarted: 'Download started successfully!',
  unknownSize: 'Unknown size',
  unknownDate: 'Unknown',
  /** The server's message with code AUTH_REQUIRED on a `user` share (portal-tools §6). */
  sharedAuthRequired: 'You must be logged in to download this file',
} as const;

export const uploadFailedText = (statusText: string) => `Upload failed: ${statusText}`;
export const downloadFailedText = (statusText: string) => `Download failed: ${statusText}`;
export const failedToUploadText = (fileName: string) => `Failed to upload ${fileName}`;
export const itemsFailedToDeleteText = (n: number) => `${n} item(s) failed to delete`;
export const sharedDownloadFailedText = (message: string) => `Download failed: ${message}`;

/** The upload card's text for a progress value (portal-tools §4). */
export function uploadStageText(progress: number): string {
  if (progress < UPLOAD_PROGRESS.accepted) return FILES_TEXTS.processingFile;
  if (progress < UPLOAD_PROGRESS.processingEnd) return FILES_TEXTS.uploadingChunks;
  return FILES_TEXTS.finalizingUpload;
}

/** Server progress (0–1) mapped onto the 35–95 processing band. */
export function processingProgress(serverProgress: number): number {
  const p = Math.min(1, Math.max(0, serverProgress));
  const { accepted, processingEnd } = UPLOAD_PROGRESS;
  return Math.round(accepted + p * (processingEnd - accepted));
}

/** Bytes, KB, MB, GB, TB; base 1024; at most 2 decimals ("1.5 KB", "0 Bytes"). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const i = Math.min(SIZE_UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  return `${Number.parseFloat((bytes / 1024 ** i).toFixed(2))} ${SIZE_UNITS[i]}`;
}

/** The extension taken from a name ("" when there is none): "a.tar.gz" → "gz", ".env" → "". */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

/** True when a share's expiry lies in the past (the modal marks it Expired). */
export function isShareExpired(expiresAt: string | null, now = Date.now()): boolean {
  return expiresAt !== null && Date.parse(expiresAt) <= now;
}

// ---- Names ----

// C0 controls, DEL and C1 controls: they break display and headers and are never typed on purpose.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Characters that make a name display as something it is not: bidirectional overrides, embeddings,
 * isolates and marks (`evil\u202egpj.exe` shows as `evilexe.jpg`), invisible zero-width characters,
 * the BOM and the line/paragraph separators.
 */
const DECEPTIVE_CHARS = /[\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u2028\u2029]/;

/**
 * Joiners are invisible too, but scripts and emoji need them: ZWJ only inside an emoji sequence
 * (👨‍👩‍👧), ZWNJ only between two non-Latin letters (Persian, Indic scripts). Anywhere else they only hide.
 */
function hasStrayJoiner(name: string): boolean {
  const chars = [...name];
  return chars.some((c, i) => {
    if (c !== '\u200d' && c !== '\u200c') return false;
    const before = chars[i - 1] ?? '';
    const after = chars[i + 1] ?? '';
    if (c === '\u200d')
      return !(
        /(?:\p{Extended_Pictographic}|\u{fe0f}|\p{Emoji_Modifier})$/u.test(before) &&
        /\p{Extended_Pictographic}/u.test(after)
      );
    return !(
      /[^\p{ASCII}\p{Script=Latin}]/u.test(before) &&
      /\p{L}/u.test(before) &&
      /[^\p{ASCII}\p{Script=Latin}]/u.test(after) &&
      /\p{L}/u.test(after)
    );
  });
}

/** Why a name shows something other than what it is, or null (names and categories share it). */
function deceptionProblem(value: string, what: string): string | null {
  if (DECEPTIVE_CHARS.test(value) || hasStrayJoiner(value)) {
    return `${what} must not contain invisible or text-direction characters`;
  }
  return null;
}

/** Why a (trimmed) item name is refused, or null when it is fine. */
export function nameProblem(name: string): string | null {
  if (name.length === 0) return 'Name must not be empty';
  if ([...name].length > NAME_MAX_CHARS) return `Name must be at most ${NAME_MAX_CHARS} characters`;
  if (name.includes('/')) return 'Name must not contain "/"';
  if (CONTROL_CHARS.test(name)) return 'Name must not contain control characters';
  const deceptive = deceptionProblem(name, 'Name');
  if (deceptive) return deceptive;
  if (!name.isWellFormed()) return 'Name must be valid Unicode text';
  if (name === '.' || name === '..') return 'Name cannot be "." or ".."';
  return null;
}

/**
 * An item name: any Unicode, trimmed and NFC-normalised (so "é" typed two ways is one name), 1–255
 * characters, no "/", no control, invisible or text-direction characters.
 */
export const ItemName = (field: string, emptyMessage?: string) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .transform((v) => v.normalize('NFC'))
    .superRefine((value, ctx) => {
      const problem = nameProblem(value);
      if (problem) {
        const message = value.length === 0 && emptyMessage ? emptyMessage : `${field}: ${problem}`;
        ctx.addIssue({ code: 'custom', message });
      }
    });

export const CategoryName = z
  .string({ error: 'category must be a string' })
  .trim()
  .min(1, { error: 'category must not be empty' })
  .refine((v) => [...v].length <= CATEGORY_MAX_CHARS, {
    error: `category must be at most ${CATEGORY_MAX_CHARS} characters`,
  })
  .refine((v) => !CONTROL_CHARS.test(v) && v.isWellFormed(), {
    error: 'category must not contain control characters',
  })
  .refine((v) => deceptionProblem(v, 'category') === null, {
    error: 'category must not contain invisible or text-direction characters',
  })
  .transform((v) => v.normalize('NFC'));

const ItemId = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: `${field} is not a valid id` });

// ---- Entities (portal-tools §3) ----

export const FileItem = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(['file', 'folder']),
  /** Bytes; 0 for folders. */
  size: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  category: z.string(),
  /** Number of stored chunks (0 for folders and empty files). */
  chunks: z.number(),
  /** Where a chat-platform store keeps the chunks; null for stores without threads (local disk). */
  threadId: z.string().nullable(),
  parentId: z.string().nullable(),
  /** Folders only: how many items are directly inside. */
  itemCount: z.number().optional(),
  /** Who uploaded or created it (the listing's Owner column still shows "System", see docs/files.md). */
  uploadedBy: z.object({ id: z.string(), username: z.string() }).nullable(),
  sha256: z.string().nullable(),
});
export type FileItem = z.infer<typeof FileItem>;

export const Breadcrumb = z.object({ id: z.string(), name: z.string() });
export type Breadcrumb = z.infer<typeof Breadcrumb>;

export const FileShare = z.object({
  id: z.string(),
  url: z.string(),
  token: z.string(),
  accessLevel: z.enum(SHARE_ACCESS_LEVELS),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  downloadCount: z.number(),
  /** The link asks for a password before it shows or serves the file (issue 30). */
  hasPassword: z.boolean(),
  /** Shown on the shared page above the file (issue 45); null = none. */
  title: z.string().nullable(),
  note: z.string().nullable(),
  /** Downloads the link serves before it stops (issue 45); null = no limit. */
  maxDownloads: z.number().nullable(),
  state: z.enum(SHARE_STATES),
  updatedAt: z.string().nullable(),
  /** The sharer is told of each download (a notice, issue 45). */
  notifyOnDownload: z.boolean(),
});
export type FileShare = z.infer<typeof FileShare>;

export const SharedFileInfo = z.object({
  /** A share of one file, or of a folder whose files the page lists (issue 45). */
  kind: z.enum(['file', 'folder']),
  name: z.string(),
  size: z.number().nullable(),
  accessLevel: z.enum(SHARE_ACCESS_LEVELS),
  downloadCount: z.number(),
  createdAt: z.string().nullable(),
  /** The sharer's title and note for the link (issue 45). */
  title: z.string().nullable(),
  note: z.string().nullable(),
  /** The link's download limit, null for none; downloadCount says how many are used. */
  maxDownloads: z.number().nullable(),
});
export type SharedFileInfo = z.infer<typeof SharedFileInfo>;

/** One file of a shared folder (issue 45): the files directly inside it, never its subfolders'. */
export const SharedFolderFile = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number().nullable(),
  updatedAt: z.string().nullable(),
});
export type SharedFolderFile = z.infer<typeof SharedFolderFile>;

export const Category = z.object({ name: z.string(), count: z.number() });
export type Category = z.infer<typeof Category>;

// ---- Requests and responses (portal-tools §7 Files) ----

export const FileIdParams = z.object({ id: ItemId('id') });
export const ShareIdParams = z.object({ shareId: ItemId('shareId') });
export const UploadIdParams = z.object({ fileId: ItemId('fileId') });
/** Tokens are checked by the handler so a malformed one answers 404 like an unknown one. */
export const ShareTokenParams = z.object({ token: z.string().max(512) });

export const FilesListQuery = z.object({ folderId: ItemId('folderId').optional() });
export const FilesListResponse = z.object({
  success: z.literal(true),
  data: z.array(FileItem),
  /** Header figures: every complete file stored, in any folder. */
  stats: z.object({ files: z.number(), bytes: z.number() }),
});
export type FilesListResponse = z.infer<typeof FilesListResponse>;

export const FilesSearchQuery = z.object({ category: CategoryName.optional() });
export const FilesSearchResponse = FilesListResponse;

export const BreadcrumbsResponse = z.object({ success: z.literal(true), data: z.array(Breadcrumb) });
export const CategoriesResponse = z.object({ success: z.literal(true), data: z.array(Category) });

export const UploadStartResponse = z.object({
  success: z.literal(true),
  fileId: z.string(),
  totalChunks: z.number(),
});
export type UploadStartResponse = z.infer<typeof UploadStartResponse>;

export const UploadStatusResponse = z.object({
  success: z.literal(true),
  completed: z.boolean(),
  progress: z.number(),
});
export type UploadStatusResponse = z.infer<typeof UploadStatusResponse>;

export const UploadCompleteBody = z.object({
  fileId: ItemId('fileId'),
  fileName: ItemName('fileName'),
  fileSize: z
    .number({ error: 'fileSize must be a number' })
    .int({ error: 'fileSize must be an integer' })
    .min(0, { error: 'fileSize must not be negative' }),
  totalChunks: z
    .number({ error: 'totalChunks must be a number' })
    .int({ error: 'totalChunks must be an integer' })
    .min(0, { error: 'totalChunks must not be negative' }),
});
export type UploadCompleteBody = z.infer<typeof UploadCompleteBody>;

export const ItemResponse = z.object({
  success: z.literal(true),
  data: FileItem,
  message: z.string().optional(),
});
export type ItemResponse = z.infer<typeof ItemResponse>;

export const FolderCreateBody = z.object({
  name: ItemName('name', FILES_TEXTS.folderNameRequired),
  parentId: ItemId('parentId').nullable().optional(),
});
export type FolderCreateBody = z.infer<typeof FolderCreateBody>;

export const RenameBody = z.object({ newName: ItemName('newName') });
export const CategorizeBody = z.object({ category: CategoryName });

export const DeleteResponse = z.object({
  success: z.literal(true),
  data: z.object({ deletedFiles: z.number(), deletedFolders: z.number() }),
});
export type DeleteResponse = z.infer<typeof DeleteResponse>;

export const FolderStatsResponse = z.object({
  success: z.literal(true),
  data: z.object({ files: z.number(), folders: z.number(), bytes: z.number() }),
});
export type FolderStatsResponse = z.infer<typeof FolderStatsResponse>;

export const DownloadTicketResponse = z.object({
  success: z.literal(true),
  data: z.object({ url: z.string(), expiresAt: z.string() }),
});
export type DownloadTicketResponse = z.infer<typeof DownloadTicketResponse>;

export const ShareCreateBody = z.object({
  accessLevel: z.enum(SHARE_ACCESS_LEVELS, { error: 'accessLevel must be user or public' }),
  expiresAt: z.iso
    .datetime({ offset: true, error: 'expiresAt must be an ISO timestamp' })
    .nullable()
    .optional()
    .or(z.literal('').transform(() => null)),
  /** Optional: the link then asks for it (stored only as a scrypt hash). Empty = none. */
  password: z
    .string({ error: 'password must be a string' })
    .max(128, { error: 'password must be at most 128 characters' })
    .refine((v) => v === '' || v.length >= 4, { error: 'password must be at least 4 characters' })
    .optional(),
  title: ShareTitle.optional(),
  note: ShareNote.optional(),
  maxDownloads: ShareMaxDownloads.nullable().optional(),
  notifyOnDownload: z.boolean({ error: 'notifyOnDownload must be true or false' }).optional(),
});
export type ShareCreateBody = z.infer<typeof ShareCreateBody>;

/**
 * Editing a share (issue 45): every field optional, an absent one unchanged. `expiresAt` null (or empty)
 * makes the link permanent; `password` null removes it, a string sets or changes it; `title`/`note`
 * empty or null clear them; `maxDownloads` null removes the limit.
 */
export const ShareUpdateBody = z.object({
  accessLevel: z.enum(SHARE_ACCESS_LEVELS, { error: 'accessLevel must be user or public' }).optional(),
  expiresAt: z.iso
    .datetime({ offset: true, error: 'expiresAt must be an ISO timestamp' })
    .nullable()
    .optional()
    .or(z.literal('').transform(() => null)),
  password: z
    .string({ error: 'password must be a string or null' })
    .min(4, { error: 'password must be at least 4 characters (null removes it)' })
    .max(128, { error: 'password must be at most 128 characters' })
    .nullable()
    .optional(),
  title: ShareTitle.nullable().optional(),
  note: ShareNote.nullable().optional(),
  maxDownloads: ShareMaxDownloads.nullable().optional(),
  notifyOnDownload: z.boolean({ error: 'notifyOnDownload must be true or false' }).optional(),
});
export type ShareUpdateBody = z.infer<typeof ShareUpdateBody>;

export const ShareResponse = z.object({ success: z.literal(true), data: FileShare });
export const SharesListResponse = z.object({ success: z.literal(true), data: z.array(FileShare) });
export const SharedInfoResponse = z.object({ success: z.literal(true), data: SharedFileInfo });
/** GET /api/files/shared/:token/files: a folder share's files, by name. */
export const SharedFolderFilesResponse = z.object({
  success: z.literal(true),
  data: z.array(SharedFolderFile),
});
export type SharedFolderFilesResponse = z.infer<typeof SharedFolderFilesResponse>;
/** A file of a shared folder: the share's token and the file's id. */
export const SharedFolderFileParams = z.object({ token: z.string().max(512), fileId: ItemId('fileId') });
export type SharedInfoResponse = z.infer<typeof SharedInfoResponse>;

export const FilesLimitsResponse = z.object({
  success: z.literal(true),
  data: z.object({ maxUploadBytes: z.number() }),
});
export type FilesLimitsResponse = z.infer<typeof FilesLimitsResponse>;

export const OkResponse = z.object({ success: z.literal(true), message: z.string().optional() });

/**
 * Why a free text shown to other members (a playlist name, a song title) is refused, or null: the
 * character rules of names (no control, invisible or text-direction characters, valid Unicode) without
 * the file-system ones ("/", "." and "..").
 */
export function shownTextProblem(value: string, what: string): string | null {
  if (CONTROL_CHARS.test(value)) return `${what} must not contain control characters`;
  const deceptive = deceptionProblem(value, what);
  if (deceptive) return deceptive;
  if (!value.isWellFormed()) return `${what} must be valid Unicode text`;
  return null;
}

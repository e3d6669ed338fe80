import { z } from 'zod';
import { Breadcrumb, FileItem, fileExtension } from './files.ts';

/**
 * The file manager beyond the spec (issue 30): previews and thumbnails, search across folders, move,
 * ZIP archives, the trash and password-protected shares. Constants, texts and schemas both sides use.
 */

// --- Previews and thumbnails -------------------------------------------------------------------------

/** What the preview viewer can show for a file; `none` = a clear "no preview" with a download button. */
export type PreviewKind = 'image' | 'video' | 'audio' | 'pdf' | 'text' | 'none';

/**
 * Raster images the browser shows safely in an <img>. SVG is listed too: it is shown only through an
 * <img> (where scripts never run) and served as an attachment with a sandboxing CSP, never as a page.
 */
const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  svg: 'image/svg+xml',
};
const VIDEO_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  ogv: 'video/ogg',
  mov: 'video/quicktime',
};
const AUDIO_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  wav: 'audio/wav',
  flac: 'audio/flac',
};
/** Shown as plain text (never rendered): HTML and SVG sources included. */
const TEXT_EXTENSIONS = new Set(
  (
    'txt md markdown log csv tsv json jsonc yaml yml toml ini cfg conf env xml html htm css scss less js mjs cjs ' +
    'ts tsx jsx py rb go rs java kt c h cpp hpp cs php sh bash zsh ps1 sql lua swift r pl diff patch gitignore ' +
    'dockerfile makefile gradle properties srt vtt tex bat'
  ).split(' '),
);

/** The preview kind of a file, from its name. */
export function previewKindOf(name: string): PreviewKind {
  const ext = fileExtension(name) || name.toLowerCase();
  if (ext in IMAGE_TYPES) return 'image';
  if (ext in VIDEO_TYPES) return 'video';
  if (ext in AUDIO_TYPES) return 'audio';
  if (ext === 'pdf') return 'pdf';
  if (TEXT_EXTENSIONS.has(ext)) return 'text';
  return 'none';
}

/**
 * The Content-Type a preview is served with. Text (whatever its language, HTML included) is always
 * text/plain, so nothing a member uploads is ever rendered as a page of the portal.
 */
export function previewContentType(name: string): string {
  const ext = fileExtension(name);
  const kind = previewKindOf(name);
  if (kind === 'text') return 'text/plain; charset=utf-8';
  if (kind === 'pdf') return 'application/pdf';
  return IMAGE_TYPES[ext] ?? VIDEO_TYPES[ext] ?? AUDIO_TYPES[ext] ?? 'application/octet-stream';
}

/** Which files get a server-made thumbnail: images (SVG rasterised without scripts) and videos (a poster). */
export function thumbnailSourceOf(name: string): 'image' | 'video' | null {
  const kind = previewKindOf(name);
  if (kind === 'image' && fileExtension(name) !== 'ico') return 'image';
  if (kind === 'video') return 'video';
  return null;
}

/** Thumbnails fit in this square (px), as WebP. */
export const THUMBNAIL_MAX_PX = 320;
/** Images larger than this are not thumbnailed (the decoder would hold too much). */
export const THUMBNAIL_MAX_IMAGE_BYTES = 100 * 1024 * 1024;
/** Text previews show at most this many bytes, with a note that the rest is cut. */
export const PREVIEW_TEXT_MAX_BYTES = 512 * 1024;

// --- Trash ------------------------------------------------------------------------------------------

/** Deleted items stay restorable this long, then are purged with their bytes. */
export const TRASH_RETENTION_DAYS = 30;
export const TRASH_RETENTION_MS = TRASH_RETENTION_DAYS * 24 * 60 * 60 * 1000;

export const TrashItem = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(['file', 'folder']),
  /** Bytes of the item (a folder: everything inside). */
  size: z.number(),
  deletedAt: z.string(),
  /** When it is purged for good. */
  purgeAt: z.string(),
  deletedBy: z.object({ id: z.string(), username: z.string() }).nullable(),
  /** Where it was: ~/shared › … (empty = the root). */
  originalPath: z.array(Breadcrumb),
});
export type TrashItem = z.infer<typeof TrashItem>;

export const TrashListResponse = z.object({
  success: z.literal(true),
  data: z.array(TrashItem),
  stats: z.object({ items: z.number(), bytes: z.number() }),
});
export type TrashListResponse = z.infer<typeof TrashListResponse>;

export const TrashRestoreResponse = z.object({
  success: z.literal(true),
  data: FileItem,
  /** Set when the item came back elsewhere or under another name, saying so. */
  message: z.string().optional(),
});
export type TrashRestoreResponse = z.infer<typeof TrashRestoreResponse>;

export const TrashPurgeResponse = z.object({
  success: z.literal(true),
  data: z.object({ purgedItems: z.number() }),
});
export type TrashPurgeResponse = z.infer<typeof TrashPurgeResponse>;

// --- Search and move --------------------------------------------------------------------------------

export const SEARCH_QUERY_MAX_CHARS = 100;
export const SEARCH_MAX_RESULTS = 200;

export const FileSearchHit = FileItem.extend({
  /** The folders from the root's child down to the item's folder (empty at the root). */
  folderPath: z.array(Breadcrumb),
});
export type FileSearchHit = z.infer<typeof FileSearchHit>;

export const FileFindQuery = z.object({
  q: z
    .string({ error: 'q must be a string' })
    .trim()
    .min(1, { error: 'q must not be empty' })
    .max(SEARCH_QUERY_MAX_CHARS, { error: `q must be at most ${SEARCH_QUERY_MAX_CHARS} characters` }),
});
export const FileFindResponse = z.object({
  success: z.literal(true),
  data: z.array(FileSearchHit),
  /** True when more items matched than were returned. */
  truncated: z.boolean(),
});
export type FileFindResponse = z.infer<typeof FileFindResponse>;

const IdString = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: `${field} is not a valid id` });

/** A selection of items (move, archive): 1–1000 ids. */
export const MAX_SELECTION = 1000;
const Selection = z
  .array(IdString('ids[]'), { error: 'ids must be an array of ids' })
  .min(1, { error: 'ids must name at least one item' })
  .max(MAX_SELECTION, { error: `ids may name at most ${MAX_SELECTION} items` });

export const MoveBody = z.object({
  ids: Selection,
  /** The destination folder; null = the root (~/shared). */
  targetFolderId: IdString('targetFolderId').nullable(),
});
export type MoveBody = z.infer<typeof MoveBody>;
export const MoveResponse = z.object({ success: z.literal(true), data: z.object({ moved: z.number() }) });
export type MoveResponse = z.infer<typeof MoveResponse>;

// --- ZIP archives -----------------------------------------------------------------------------------

export const ArchiveTicketBody = z.object({ ids: Selection });
export type ArchiveTicketBody = z.infer<typeof ArchiveTicketBody>;
export const ArchiveQuery = z.object({
  ticket: z.string().max(128, { error: 'ticket is too long' }),
});
/** Files an archive may hold (a bound on the work one request can ask for). */
export const ARCHIVE_MAX_FILES = 10_000;

// --- Password-protected shares ---------------------------------------------------------------------

export const SHARE_PASSWORD_MIN_CHARS = 4;
export const SHARE_PASSWORD_MAX_CHARS = 128;
/** Wrong passwords allowed per address in the window before answers are 429. */
export const SHARE_PASSWORD_MAX_FAILURES = 10;
export const SHARE_PASSWORD_WINDOW_MS = 15 * 60_000;
/** The header the shared-link page sends the password in (never in a URL). */
export const SHARE_PASSWORD_HEADER = 'x-share-password';

export const SharePassword = z
  .string({ error: 'password must be a string' })
  .min(SHARE_PASSWORD_MIN_CHARS, {
    error: `password must be at least ${SHARE_PASSWORD_MIN_CHARS} characters`,
  })
  .max(SHARE_PASSWORD_MAX_CHARS, {
    error: `password must be at most ${SHARE_PASSWORD_MAX_CHARS} characters`,
  });

export const FILE_MANAGER_TEXTS = {
  noPreview: 'No preview available for this file',
  previewTooLarge: 'Only the beginning of this file is shown',
  previewFailed: 'The preview could not be loaded',
  searchPlaceholder: 'Search all folders',
  noSearchResults: 'No files or folders match',
  moveTo: 'Move to…',
  moved: (n: number) => `Moved ${n} item(s)`,
  moveFailed: 'Move failed',
  trash: 'Trash',
  trashEmpty: 'The trash is empty',
  movedToTrash: (n: number) => `Moved ${n} item(s) to the trash`,
  restore: 'Restore',
  restored: 'Restored',
  /** A restore that lost the race for a free name four times (409 NAME_TAKEN). */
  restoreRaced: 'Other items took the names this one could have; try again',
  restoreFailed: 'Restore failed',
  emptyTrash: 'Empty trash',
  deleteForever: 'Delete forever',
  trashNote: `Deleted items are kept for ${TRASH_RETENTION_DAYS} days, then removed for good. They still count towards storage quotas until then.`,
  downloadZip: 'Download as ZIP',
  passwordRequired: 'This link is protected by a password',
  passwordWrong: 'Wrong password',
  passwordLabel: 'Password',
  unlock: 'Unlock',
} as const;

export const SharePasswordErrorCodes = {
  required: 'SHARE_PASSWORD_REQUIRED',
  wrong: 'SHARE_PASSWORD_WRONG',
} as const;

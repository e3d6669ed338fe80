import { z } from 'zod';

/**
 * Editable share links (issue 45): a title and note shown on the shared page, a download limit, and
 * the state a share is in. The share schemas themselves are in files.ts (FileShare, ShareUpdateBody).
 */

export const SHARE_TITLE_MAX_CHARS = 100;
export const SHARE_NOTE_MAX_CHARS = 1000;
/** The largest download limit a link takes (a bound, not a goal: a limit is for a handful). */
export const SHARE_MAX_DOWNLOADS_LIMIT = 1_000_000;
/**
 * How long after a download of a limited link began the same client (its ticket, else its address) may
 * continue it with Range requests without counting again (docs/files.md, "Download limits").
 */
export const SHARE_RESUME_WINDOW_MS = 24 * 60 * 60_000;

export const SHARE_STATES = ['active', 'expired', 'limit_reached'] as const;
export type ShareState = (typeof SHARE_STATES)[number];

export const SHARE_LINK_TEXTS = {
  limitReachedTitle: 'Download limit reached',
  /** The server's message with code SHARE_LIMIT_REACHED, and the shared page's body. */
  limitReached: 'This link has reached its download limit and no longer serves the file',
  notPreviewed: 'Links with a download limit are not previewed: download the file instead',
  stateLabels: { active: 'Active', expired: 'Expired', limit_reached: 'Limit reached' },
  editShare: 'Edit share',
  shareUpdated: 'Share updated',
  updateShareFailed: 'Failed to update share',
  downloadsLeft: (n: number) => (n === 1 ? '1 download left' : `${n} downloads left`),
} as const;

/** Where a share stands: expiry first (an expired link says so even when its limit was reached too). */
export function shareStateOf(
  share: { expiresAt: string | null; maxDownloads: number | null; downloadCount: number },
  now = Date.now(),
): ShareState {
  if (share.expiresAt !== null && Date.parse(share.expiresAt) <= now) return 'expired';
  if (share.maxDownloads !== null && share.downloadCount >= share.maxDownloads) return 'limit_reached';
  return 'active';
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** A short title for the link (trimmed; empty = none). No line breaks. */
export const ShareTitle = z
  .string({ error: 'title must be a string' })
  .trim()
  .max(SHARE_TITLE_MAX_CHARS, { error: `title must be at most ${SHARE_TITLE_MAX_CHARS} characters` })
  .refine((v) => !CONTROL.test(v) && !/[\n\r\t]/.test(v), { error: 'title must be one line of text' })
  .refine((v) => v.isWellFormed(), { error: 'title must be valid Unicode' });

/** A note shown to whoever opens the link (trimmed; empty = none). Line breaks allowed. */
export const ShareNote = z
  .string({ error: 'note must be a string' })
  .trim()
  .max(SHARE_NOTE_MAX_CHARS, { error: `note must be at most ${SHARE_NOTE_MAX_CHARS} characters` })
  .refine((v) => !CONTROL.test(v), { error: 'note must not contain control characters' })
  .refine((v) => v.isWellFormed(), { error: 'note must be valid Unicode' });

export const ShareMaxDownloads = z
  .number({ error: 'maxDownloads must be a number' })
  .int({ error: 'maxDownloads must be an integer' })
  .min(1, { error: 'maxDownloads must be at least 1 (or null for no limit)' })
  .max(SHARE_MAX_DOWNLOADS_LIMIT, {
    error: `maxDownloads must be at most ${SHARE_MAX_DOWNLOADS_LIMIT}`,
  });

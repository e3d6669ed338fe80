import { randomUUID } from 'node:crypto';
import { FILES_TEXTS, SHARE_LINK_TEXTS, type ShareCreateBody, type ShareUpdateBody } from '@guildhall/common';
import type { Db } from '../../../db/index.ts';
import { type AuthContext, enforceAccess } from '../../../platform/access.ts';
import { randomToken } from '../../../platform/crypto.ts';
import { fail } from '../../../platform/errors.ts';
import { findItem } from '../repo.ts';
import { requireItem } from '../service.ts';
import type { FileSharesTable, FilesTable } from '../tables.ts';
import { hashSharePassword } from './password.ts';
import {
  deleteShareTickets,
  findShareById,
  findShareByToken,
  insertShare,
  listSharesOfFile,
  markShareRevoked,
  type ShareChanges,
  updateShareRow,
} from './repo.ts';

/** 24 random bytes (192 bits), base64url: 32 characters. */
const TOKEN_BYTES = 24;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

export const shareNotFound = () =>
  fail('NOT_FOUND', 'Shared file not found: the link has expired, been revoked, or never existed');

export const shareLimitReached = () => fail('SHARE_LIMIT_REACHED', SHARE_LINK_TEXTS.limitReached);

/** True once a limited share has served its downloads. */
export function isLimitReached(share: FileSharesTable): boolean {
  return share.max_downloads != null && Number(share.download_count) >= Number(share.max_downloads);
}

/** An empty title or note is none. */
const textOrNull = (v: string | null | undefined) => (v ? v : null);

function futureExpiry(value: string | null | undefined, now: Date): string | null {
  const expiresAt = value ? new Date(value) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) {
    throw fail('EXPIRY_IN_PAST', 'expiresAt must be in the future (leave it empty for a permanent link)');
  }
  return expiresAt ? expiresAt.toISOString() : null;
}

export async function createShare(
  db: Db,
  fileId: string,
  userId: string,
  body: ShareCreateBody,
  now: Date,
): Promise<FileSharesTable> {
  await requireItem(db, fileId);
  const row: FileSharesTable = {
    id: randomUUID(),
    token: randomToken(TOKEN_BYTES),
    file_id: fileId,
    access_level: body.accessLevel,
    expires_at: futureExpiry(body.expiresAt, now),
    created_at: now.toISOString(),
    created_by: userId,
    download_count: 0,
    revoked_at: null,
    password_hash: body.password ? await hashSharePassword(body.password) : null,
    title: textOrNull(body.title),
    note: textOrNull(body.note),
    max_downloads: body.maxDownloads ?? null,
    updated_at: null,
    notify_downloads: body.notifyOnDownload ? 1 : 0,
  };
  await insertShare(db, row);
  return row;
}

export async function listShares(db: Db, fileId: string): Promise<FileSharesTable[]> {
  await requireItem(db, fileId);
  return listSharesOfFile(db, fileId);
}

/**
 * Edits a share (issue 45); absent fields stay as they are, and changes apply to the next request. A
 * new password or access level also ends the download tickets handed out under the old rules. An
 * expired share may be given a new expiry (it is live again); a revoked one is gone (404).
 */
export async function updateShare(
  db: Db,
  shareId: string,
  body: ShareUpdateBody,
  now: Date,
): Promise<FileSharesTable> {
  const share = await findShareById(db, shareId);
  if (!share || share.revoked_at) throw fail('NOT_FOUND', 'Share not found');
  await requireItem(db, share.file_id);
  const changes: ShareChanges = { updated_at: now.toISOString() };
  if (body.accessLevel !== undefined) changes.access_level = body.accessLevel;
  if (body.expiresAt !== undefined) changes.expires_at = futureExpiry(body.expiresAt, now);
  if (body.password !== undefined) {
    changes.password_hash = body.password === null ? null : await hashSharePassword(body.password);
  }
  if (body.title !== undefined) changes.title = textOrNull(body.title);
  if (body.note !== undefined) changes.note = textOrNull(body.note);
  if (body.maxDownloads !== undefined) changes.max_downloads = body.maxDownloads;
  if (body.notifyOnDownload !== undefined) changes.notify_downloads = body.notifyOnDownload ? 1 : 0;
  if ((await updateShareRow(db, shareId, changes)) === 0) throw fail('NOT_FOUND', 'Share not found');
  const rulesChanged =
    body.password !== undefined ||
    (body.accessLevel !== undefined && body.accessLevel !== share.access_level);
  if (rulesChanged) await deleteShareTickets(db, shareId);
  return { ...share, ...changes };
}

export async function revokeShare(db: Db, shareId: string, now: Date): Promise<void> {
  const share = await findShareById(db, shareId);
  if (!share || share.revoked_at || (await markShareRevoked(db, shareId, now.toISOString())) === 0) {
    throw fail('NOT_FOUND', 'Share not found');
  }
}

/**
 * A live share and its file: expired, revoked, malformed and deleted-file links are all a 404, so a
 * link's history is not revealed.
 */
export async function findLiveShare(db: Db, token: string, now: Date, { allowLimitReached = false } = {}) {
  return findLiveShareOf(db, token, 'file', now, { allowLimitReached });
}

/**
 * A live share of a file or a folder (`kind`), with its item. A share of the other kind is a 404 too:
 * a folder share has no bytes of its own, and a file share has no listing.
 */
export async function findLiveShareOf(
  db: Db,
  token: string,
  kind: 'file' | 'folder' | 'any',
  now: Date,
  { allowLimitReached = false } = {},
): Promise<{ share: FileSharesTable; file: FilesTable }> {
  if (!TOKEN_PATTERN.test(token)) throw shareNotFound();
  const share = await findShareByToken(db, token);
  if (!share || share.revoked_at) throw shareNotFound();
  if (share.expires_at && Date.parse(share.expires_at) <= now.getTime()) throw shareNotFound();
  const file = await findItem(db, share.file_id);
  if (file?.status !== 'complete' || (kind !== 'any' && file.type !== kind)) throw shareNotFound();
  // Said plainly (410), like an expiry the sharer chose: the recipient should know why it stopped.
  if (!allowLimitReached && isLimitReached(share)) throw shareLimitReached();
  return { share, file };
}

/** A `user` share needs a signed-in, approved member; signed out it answers AUTH_REQUIRED (portal-tools §6). */
export function requireShareAccess(share: FileSharesTable, auth: AuthContext | null): void {
  if (share.access_level === 'public') return;
  if (!auth) throw fail('AUTH_REQUIRED', FILES_TEXTS.sharedAuthRequired);
  enforceAccess('login', auth, true);
}

// Chat and social link unfurlers fetch links to preview them; that is not somebody downloading.
const LINK_PREVIEW_AGENTS =
  /discordbot|slackbot|slack-imgproxy|twitterbot|facebookexternalhit|facebot|telegrambot|whatsapp|linkedinbot|skypeuripreview|embedly|iframely|redditbot|mastodon|pinterest|vkshare|bitlybot|google-pagerenderer|bingpreview/i;

export function isLinkPreview(userAgent: string | undefined): boolean {
  return !!userAgent && LINK_PREVIEW_AGENTS.test(userAgent);
}

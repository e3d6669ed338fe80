import type { Db } from '../../db/index.ts';
import { randomToken, sha256Hex } from '../../platform/crypto.ts';
import { isoIn, nowIso } from '../../platform/time.ts';
import { findTicket, insertTicket } from './repo.ts';

/**
 * Download tickets let the browser's own download manager fetch a file (streamed to disk, resumable)
 * without the session token in a URL: a random token bound to one file (and share), valid for a few
 * minutes, stored only as a hash. It can be used more than once while valid so range resumes work.
 */
export const DOWNLOAD_TICKET_TTL_MS = 5 * 60_000;

export type TicketScope = { fileId: string; shareId: string | null; userId: string | null };

export async function issueTicket(db: Db, scope: TicketScope): Promise<{ token: string; expiresAt: string }> {
  const token = randomToken(32);
  const expiresAt = isoIn(DOWNLOAD_TICKET_TTL_MS);
  await insertTicket(db, {
    token_hash: sha256Hex(token),
    file_id: scope.fileId,
    share_id: scope.shareId,
    user_id: scope.userId,
    expires_at: expiresAt,
  });
  return { token, expiresAt };
}

/** True when the ticket exists, has not expired and was issued for exactly this file (and share). */
export async function isTicketValid(
  db: Db,
  token: string,
  fileId: string,
  shareId: string | null,
): Promise<boolean> {
  if (token.length > 128) return false;
  const row = await findTicket(db, sha256Hex(token));
  return !!row && row.expires_at > nowIso() && row.file_id === fileId && row.share_id === shareId;
}

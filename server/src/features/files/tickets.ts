import { randomToken, sha256Hex } from '../../platform/crypto.ts';
import { isSessionLive } from '../../platform/sessions.ts';
import { isoIn, isoOn } from '../../platform/time.ts';
import type { FilesContext } from './context.ts';
import { findTicket, insertTicket } from './repo.ts';

/**
 * Download tickets let the browser's own download manager fetch a file (streamed to disk, resumable)
 * without the session token in a URL: a random token bound to one file (and share), valid for a few
 * minutes, stored only as a hash. It can be used more than once while valid so range resumes work.
 */
export const DOWNLOAD_TICKET_TTL_MS = 5 * 60_000;

export type TicketScope = {
  fileId: string;
  shareId: string | null;
  userId: string | null;
  /** The asking session's token hash, when signed in: logout, revocation or unapproval ends the ticket. */
  sessionHash: string | null;
};

export async function issueTicket(
  ctx: Pick<FilesContext, 'db' | 'clock'>,
  scope: TicketScope,
): Promise<{ token: string; expiresAt: string }> {
  const token = randomToken(32);
  const expiresAt = isoIn(ctx.clock, DOWNLOAD_TICKET_TTL_MS);
  await insertTicket(ctx.db, {
    token_hash: sha256Hex(token),
    file_id: scope.fileId,
    share_id: scope.shareId,
    user_id: scope.userId,
    expires_at: expiresAt,
    session_hash: scope.sessionHash,
  });
  return { token, expiresAt };
}

/**
 * True when the ticket exists, has not expired, was issued for exactly this file (and share), and the
 * session it was issued to (if any) is still live and its user still approved.
 */
export async function isTicketValid(
  ctx: Pick<FilesContext, 'db' | 'clock'>,
  token: string,
  fileId: string,
  shareId: string | null,
): Promise<boolean> {
  return (await validTicketHolder(ctx, token, fileId, shareId)) !== null;
}

/** As isTicketValid; a valid ticket gives who it was issued to (null: a signed-out share visitor). */
export async function validTicketHolder(
  ctx: Pick<FilesContext, 'db' | 'clock'>,
  token: string,
  fileId: string,
  shareId: string | null,
): Promise<{ userId: string | null } | null> {
  if (token.length > 128) return null;
  const { db } = ctx;
  const row = await findTicket(db, sha256Hex(token));
  if (!row || row.expires_at <= isoOn(ctx.clock) || row.file_id !== fileId || row.share_id !== shareId)
    return null;
  if (row.session_hash !== null && !(await isSessionLive(db, row.session_hash))) return null;
  return { userId: row.user_id };
}

import { randomToken, sha256Hex } from '../../../platform/crypto.ts';
import { isSessionLive } from '../../../platform/sessions.ts';
import { isoIn, isoOn } from '../../../platform/time.ts';
import type { FilesContext } from '../context.ts';
import { DOWNLOAD_TICKET_TTL_MS } from '../tickets.ts';
import { findArchiveTicket, insertArchiveTicket } from './repo.ts';

/**
 * A ticket for the browser's download manager to fetch a ZIP of a selection (it cannot send the bearer
 * token): like a download ticket, 256 random bits stored as a hash, valid 5 minutes, dying with the
 * session that asked for it; it names the selected items.
 */
export async function issueArchiveTicket(
  ctx: Pick<FilesContext, 'db' | 'clock'>,
  ids: string[],
  userId: string,
  sessionHash: string,
): Promise<{ token: string; expiresAt: string }> {
  const token = randomToken(32);
  const expiresAt = isoIn(ctx.clock, DOWNLOAD_TICKET_TTL_MS);
  await insertArchiveTicket(
    ctx.db,
    {
      token_hash: sha256Hex(token),
      item_ids: JSON.stringify(ids),
      user_id: userId,
      session_hash: sessionHash,
      expires_at: expiresAt,
    },
    isoOn(ctx.clock),
  );
  return { token, expiresAt };
}

/** The item ids of a live ticket, or null. */
export async function redeemArchiveTicket(
  ctx: Pick<FilesContext, 'db' | 'clock'>,
  token: string,
): Promise<{ ids: string[]; userId: string | null } | null> {
  const { db } = ctx;
  const row = await findArchiveTicket(db, sha256Hex(token));
  if (!row || row.expires_at <= isoOn(ctx.clock)) return null;
  if (row.session_hash !== null && !(await isSessionLive(db, row.session_hash))) return null;
  return { ids: JSON.parse(row.item_ids) as string[], userId: row.user_id };
}

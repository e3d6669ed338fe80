import type { Db } from '../../../db/index.ts';
import { randomToken, sha256Hex } from '../../../platform/crypto.ts';
import { isSessionLive } from '../../../platform/sessions.ts';
import { isoIn, nowIso } from '../../../platform/time.ts';
import { DOWNLOAD_TICKET_TTL_MS } from '../tickets.ts';
import { findArchiveTicket, insertArchiveTicket } from './repo.ts';

/**
 * A ticket for the browser's download manager to fetch a ZIP of a selection (it cannot send the bearer
 * token): like a download ticket, 256 random bits stored as a hash, valid 5 minutes, dying with the
 * session that asked for it; it names the selected items.
 */
export async function issueArchiveTicket(
  db: Db,
  ids: string[],
  userId: string,
  sessionHash: string,
): Promise<{ token: string; expiresAt: string }> {
  const token = randomToken(32);
  const expiresAt = isoIn(DOWNLOAD_TICKET_TTL_MS);
  await insertArchiveTicket(
    db,
    {
      token_hash: sha256Hex(token),
      item_ids: JSON.stringify(ids),
      user_id: userId,
      session_hash: sessionHash,
      expires_at: expiresAt,
    },
    nowIso(),
  );
  return { token, expiresAt };
}

/** The item ids of a live ticket, or null. */
export async function redeemArchiveTicket(
  db: Db,
  token: string,
): Promise<{ ids: string[]; userId: string | null } | null> {
  const row = await findArchiveTicket(db, sha256Hex(token));
  if (!row || row.expires_at <= nowIso()) return null;
  if (row.session_hash !== null && !(await isSessionLive(db, row.session_hash))) return null;
  return { ids: JSON.parse(row.item_ids) as string[], userId: row.user_id };
}

import { SESSION_TTL_MS } from '@guildhall/common';
import type { Db } from '../db/index.ts';
import type { UsersTable } from '../db/schema.ts';
import { randomToken, sha256Hex } from './crypto.ts';
import { wallIsoIn, wallNowIso } from './time.ts';

/** Sessions are opaque random tokens; only their SHA-256 is stored, so a database leak yields no tokens. */
export async function createSession(db: Db, userId: string): Promise<string> {
  const token = randomToken();
  const now = wallNowIso();
  await db
    .insertInto('sessions')
    .values({
      token_hash: sha256Hex(token),
      user_id: userId,
      created_at: now,
      expires_at: wallIsoIn(SESSION_TTL_MS),
      last_used_at: now,
      revoked_at: null,
    })
    .execute();
  return token;
}

export type SessionLookup = { tokenHash: string; user: UsersTable };

/** The live session for a token with its user, or null when unknown, expired or revoked. */
export async function findSession(db: Db, token: string): Promise<SessionLookup | null> {
  const tokenHash = sha256Hex(token);
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.discord_id', 'sessions.user_id')
    .selectAll('users')
    .select(['sessions.expires_at', 'sessions.revoked_at', 'sessions.last_used_at'])
    .where('sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row || row.revoked_at || row.expires_at <= wallNowIso()) return null;
  // Touch last use at most once a minute so reads do not turn into writes.
  if (Date.parse(row.last_used_at) < Date.now() - 60_000) {
    await db
      .updateTable('sessions')
      .set({ last_used_at: wallNowIso() })
      .where('token_hash', '=', tokenHash)
      .execute();
  }
  const { expires_at: _e, revoked_at: _r, last_used_at: _l, ...user } = row;
  return { tokenHash, user };
}

/** True while the session with this token hash is neither revoked nor expired and its user is approved. */
export async function isSessionLive(db: Db, tokenHash: string): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.discord_id', 'sessions.user_id')
    .select(['sessions.expires_at', 'sessions.revoked_at', 'users.is_approved'])
    .where('sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
  return !!row && !row.revoked_at && row.expires_at > wallNowIso() && row.is_approved === 1;
}

export async function revokeSession(db: Db, tokenHash: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: wallNowIso() })
    .where('token_hash', '=', tokenHash)
    .execute();
}

/** Ends every session of a user at once (removal, lowering, admin CLI). Returns how many were live. */
export async function revokeUserSessions(db: Db, userId: string): Promise<number> {
  const r = await db
    .updateTable('sessions')
    .set({ revoked_at: wallNowIso() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function deleteExpiredSessions(db: Db): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', wallNowIso()).execute();
}

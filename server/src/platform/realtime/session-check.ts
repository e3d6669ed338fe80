import { type AccessLevel, type RealtimeRefusalCode, TEXTS } from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import type { UsersTable } from '../../db/schema.ts';
import type { LevelOf } from '../access.ts';
import { wallNowIso } from '../time.ts';

/** Who a socket acts for. Only the token's hash is kept: socket data may travel between instances. */
export type SocketIdentity = {
  userId: string;
  username: string;
  level: AccessLevel;
  tokenHash: string;
};

export type SessionVerdict =
  | { ok: true; identity: SocketIdentity }
  | { ok: false; code: RealtimeRefusalCode; message: string };

/** Session and user for each live (unexpired, unrevoked) token hash, in one query per 500 hashes. */
export async function findLiveSessionUsers(db: Db, tokenHashes: string[]): Promise<Map<string, UsersTable>> {
  const found = new Map<string, UsersTable>();
  const now = wallNowIso();
  for (let i = 0; i < tokenHashes.length; i += 500) {
    const rows = await db
      .selectFrom('sessions')
      .innerJoin('users', 'users.discord_id', 'sessions.user_id')
      .selectAll('users')
      .select('sessions.token_hash')
      .where('sessions.token_hash', 'in', tokenHashes.slice(i, i + 500))
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', now)
      .execute();
    for (const { token_hash, ...user } of rows) found.set(token_hash, user);
  }
  return found;
}

/** The realtime channel admits what a `login` route admits: a live session of an approved user. */
export async function verdictFor(
  levelOf: LevelOf,
  tokenHash: string,
  user: UsersTable | undefined,
): Promise<SessionVerdict> {
  if (!user) return { ok: false, code: 'AUTH_REQUIRED', message: TEXTS.sessionInvalid };
  if (user.is_approved !== 1) return { ok: false, code: 'NOT_APPROVED', message: TEXTS.notApproved };
  return {
    ok: true,
    identity: {
      userId: user.discord_id,
      username: user.username,
      level: await levelOf(user),
      tokenHash,
    },
  };
}

import { randomUUID } from 'node:crypto';
import {
  API_TOKEN_PREFIX,
  API_TOKEN_TEXTS,
  API_TOKENS_PER_MEMBER,
  type ApiTokenCreateBody,
} from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import type { ApiTokensTable } from '../../db/schema.ts';
import { randomToken, sha256Hex } from '../../platform/crypto.ts';
import { fail } from '../../platform/errors.ts';
import { countLiveTokens, insertApiToken, listMemberTokens, revokeMemberToken } from './repo.ts';

const DAY_MS = 24 * 60 * 60_000;

/**
 * Creates a token: 32 random bytes behind the `gh_` prefix, stored only as its SHA-256. The token is
 * returned this once. At most API_TOKENS_PER_MEMBER live tokens per member (409 beyond).
 */
export async function createApiToken(
  db: Db,
  userId: string,
  body: ApiTokenCreateBody,
  now: Date,
): Promise<{ token: string; row: ApiTokensTable }> {
  if ((await countLiveTokens(db, userId, now.toISOString())) >= API_TOKENS_PER_MEMBER) {
    throw fail('TOO_MANY_API_TOKENS', API_TOKEN_TEXTS.tooMany);
  }
  const token = `${API_TOKEN_PREFIX}${randomToken(32)}`;
  const row: ApiTokensTable = {
    id: randomUUID(),
    user_id: userId,
    token_hash: sha256Hex(token),
    name: body.name,
    hint: token.slice(0, API_TOKEN_PREFIX.length + 4),
    scopes: body.scopes.join(' '),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + body.expiresInDays * DAY_MS).toISOString(),
    last_used_at: null,
    revoked_at: null,
  };
  await insertApiToken(db, row);
  return { token, row };
}

export function listApiTokens(db: Db, userId: string): Promise<ApiTokensTable[]> {
  return listMemberTokens(db, userId);
}

/** Revokes one of the caller's own tokens at once (the next request with it is 401); others' are 404. */
export async function revokeApiToken(db: Db, userId: string, id: string, now: Date): Promise<void> {
  if ((await revokeMemberToken(db, userId, id, now.toISOString())) === 0) {
    throw fail('NOT_FOUND', 'Token not found');
  }
}

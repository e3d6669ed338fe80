import { API_TOKEN_PREFIX, API_TOKEN_SCOPES, type ApiTokenScope } from '@guildhall/common';
import type { Db } from '../db/index.ts';
import type { UsersTable } from '../db/schema.ts';
import { sha256Hex } from './crypto.ts';
import { wallNowIso } from './time.ts';

/**
 * Personal API tokens as credentials (issue 45; the routes that manage them are the apiTokens
 * feature's). Like sessions, only a SHA-256 is stored: tokens are 256 random bits, so a database leak
 * yields none. They are told apart from session tokens by their prefix.
 */

export function isApiToken(token: string): boolean {
  return token.startsWith(API_TOKEN_PREFIX);
}

export type ApiTokenLookup = {
  id: string;
  tokenHash: string;
  scopes: ApiTokenScope[];
  user: UsersTable;
};

export function parseScopes(stored: string): ApiTokenScope[] {
  return stored
    .split(' ')
    .filter((s): s is ApiTokenScope => (API_TOKEN_SCOPES as readonly string[]).includes(s));
}

/** The live token with its member, or null when unknown, revoked or expired. Touches last use once a minute. */
export async function findApiToken(db: Db, token: string, now = new Date()): Promise<ApiTokenLookup | null> {
  const tokenHash = sha256Hex(token);
  const row = await db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.discord_id', 'api_tokens.user_id')
    .selectAll('users')
    .select([
      'api_tokens.id as token_id',
      'api_tokens.scopes',
      'api_tokens.expires_at',
      'api_tokens.revoked_at',
      'api_tokens.last_used_at',
    ])
    .where('api_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row || row.revoked_at || Date.parse(row.expires_at) <= now.getTime()) return null;
  if (!row.last_used_at || Date.parse(row.last_used_at) < now.getTime() - 60_000) {
    await db
      .updateTable('api_tokens')
      .set({ last_used_at: wallNowIso() })
      .where('token_hash', '=', tokenHash)
      .execute();
  }
  const { token_id: id, scopes, expires_at: _e, revoked_at: _r, last_used_at: _l, ...user } = row;
  return { id, tokenHash, scopes: parseScopes(scopes), user };
}

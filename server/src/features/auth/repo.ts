import type { Db } from '../../db/index.ts';
import { sha256Hex } from '../../platform/crypto.ts';

export async function saveOAuthState(
  db: Db,
  state: string,
  codeVerifier: string,
  expiresAt: string,
  now: string,
): Promise<void> {
  await db
    .insertInto('oauth_states')
    .values({ state_hash: sha256Hex(state), code_verifier: codeVerifier, expires_at: expiresAt })
    .execute();
  await db.deleteFrom('oauth_states').where('expires_at', '<=', now).execute();
}

/**
 * Consumes a state exactly once: the row is deleted and its verifier returned, or null when the
 * state is unknown, already used or expired. DELETE … RETURNING makes reuse race-free.
 */
export async function consumeOAuthState(db: Db, state: string, now: string): Promise<string | null> {
  const row = await db
    .deleteFrom('oauth_states')
    .where('state_hash', '=', sha256Hex(state))
    .returning(['code_verifier', 'expires_at'])
    .executeTakeFirst();
  if (!row || row.expires_at <= now) return null;
  return row.code_verifier;
}

/** A row of the key/value `settings` table (the access code), or undefined. */
export async function readSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** Stores `value` under `key` unless a row is there already (the first of several instances wins). */
export async function insertSettingIfAbsent(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

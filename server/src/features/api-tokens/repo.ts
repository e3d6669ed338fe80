import type { Db } from '../../db/index.ts';
import type { ApiTokensTable } from '../../db/schema.ts';

/** Kysely queries of personal API tokens (issue 45). */

export async function insertApiToken(db: Db, row: ApiTokensTable): Promise<void> {
  await db.insertInto('api_tokens').values(row).execute();
}

/** A member's tokens that were not revoked (expired ones included, marked), newest first. */
export async function listMemberTokens(db: Db, userId: string): Promise<ApiTokensTable[]> {
  return db
    .selectFrom('api_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export async function countLiveTokens(db: Db, userId: string, now: string): Promise<number> {
  const row = await db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Revokes one of the member's own tokens; 0 when it is not theirs or already revoked. */
export async function revokeMemberToken(db: Db, userId: string, id: string, now: string): Promise<number> {
  const r = await db
    .updateTable('api_tokens')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

import { randomUUID } from 'node:crypto';
import { type OsintHistoryEntry, OsintResult, type OsintType } from '@guildhall/common';
import type { Db } from '../../db/index.ts';

const DAY_MS = 86_400_000;
const LISTED = 100;

/**
 * Each member's past searches (issue 28): the result as it was shown, kept OSINT_HISTORY_DAYS and then
 * dropped. Only the member who ran a search reads it back (admins see who searched what in the audit).
 */
export async function storeSearch(db: Db, userId: string, result: OsintResult): Promise<OsintResult> {
  // The server's own id: a client-chosen one could collide with another member's.
  const id = randomUUID();
  const stored = { ...result, id };
  await db
    .insertInto('osint_searches')
    .values({
      id,
      user_id: userId,
      type: result.type,
      query: result.query,
      overall_risk: result.summary.overallRisk,
      result: JSON.stringify(stored),
      created_at: new Date().toISOString(),
    })
    .execute();
  return stored;
}

export async function listSearches(db: Db, userId: string, keptDays: number): Promise<OsintHistoryEntry[]> {
  const rows = await db
    .selectFrom('osint_searches')
    .select(['id', 'type', 'query', 'overall_risk', 'created_at'])
    .where('user_id', '=', userId)
    .where('created_at', '>=', cutoff(keptDays))
    .orderBy('created_at', 'desc')
    .limit(LISTED)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    type: r.type as OsintType,
    query: r.query,
    overallRisk: r.overall_risk as OsintHistoryEntry['overallRisk'],
    createdAt: r.created_at,
  }));
}

/** The member's own stored search, or null (someone else's is as absent as a missing one). */
export async function getSearch(
  db: Db,
  userId: string,
  id: string,
  keptDays: number,
): Promise<OsintResult | null> {
  const row = await db
    .selectFrom('osint_searches')
    .select(['result'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('created_at', '>=', cutoff(keptDays))
    .executeTakeFirst();
  if (!row) return null;
  const parsed = OsintResult.safeParse(JSON.parse(row.result));
  return parsed.success ? parsed.data : null;
}

/** Drops searches older than the retention; returns how many. */
export async function pruneSearches(db: Db, keptDays: number): Promise<number> {
  const res = await db
    .deleteFrom('osint_searches')
    .where('created_at', '<', cutoff(keptDays))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

function cutoff(days: number): string {
  return new Date(Date.now() - days * DAY_MS).toISOString();
}

import { randomUUID } from 'node:crypto';
import { type OsintHistoryEntry, OsintResult, type OsintType } from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import { deleteSearchesBefore, insertSearch, listSearchRows, searchResultJson } from './repo.ts';

const DAY_MS = 86_400_000;
const LISTED = 100;

/**
 * Each member's past searches (issue 28): the result as it was shown, kept OSINT_HISTORY_DAYS and then
 * dropped. Only the member who ran a search reads it back (admins see who searched what in the audit).
 * `now` is the feature clock's time (ms).
 */
export async function storeSearch(
  db: Db,
  now: number,
  userId: string,
  result: OsintResult,
): Promise<OsintResult> {
  // The server's own id: a client-chosen one could collide with another member's.
  const id = randomUUID();
  const stored = { ...result, id };
  await insertSearch(db, {
    id,
    user_id: userId,
    type: result.type,
    query: result.query,
    overall_risk: result.summary.overallRisk,
    result: JSON.stringify(stored),
    created_at: new Date(now).toISOString(),
  });
  return stored;
}

export async function listSearches(
  db: Db,
  userId: string,
  keptDays: number,
  now: number,
): Promise<OsintHistoryEntry[]> {
  const rows = await listSearchRows(db, userId, cutoff(keptDays, now), LISTED);
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
  now: number,
): Promise<OsintResult | null> {
  const json = await searchResultJson(db, userId, id, cutoff(keptDays, now));
  if (json === undefined) return null;
  const parsed = OsintResult.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : null;
}

/** Drops searches older than the retention; returns how many. */
export function pruneSearches(db: Db, keptDays: number, now: number): Promise<number> {
  return deleteSearchesBefore(db, cutoff(keptDays, now));
}

function cutoff(days: number, now: number): string {
  return new Date(now - days * DAY_MS).toISOString();
}

import type { Insertable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { OsintSearchesTable, OsintSiteReportsTable } from './tables.ts';

/**
 * Every query of the OSINT feature (its searches, site reports and disabled sites). Times come in from
 * the caller, read from the feature's clock, so the rules above can be tested on a moved clock.
 */

export async function insertSearch(db: Db, row: Insertable<OsintSearchesTable>): Promise<void> {
  await db.insertInto('osint_searches').values(row).execute();
}

export function listSearchRows(db: Db, userId: string, since: string, limit: number) {
  return db
    .selectFrom('osint_searches')
    .select(['id', 'type', 'query', 'overall_risk', 'created_at'])
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

/** The stored result JSON of the member's own search made since `since`, or undefined. */
export async function searchResultJson(
  db: Db,
  userId: string,
  id: string,
  since: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('osint_searches')
    .select(['result'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return row?.result;
}

/** Deletes searches made before `before`; returns how many. */
export async function deleteSearchesBefore(db: Db, before: string): Promise<number> {
  const res = await db.deleteFrom('osint_searches').where('created_at', '<', before).executeTakeFirst();
  return Number(res.numDeletedRows);
}

export function disabledSiteRows(db: Db) {
  return db
    .selectFrom('osint_disabled_sites')
    .select(['name', 'reason', 'disabled_at'])
    .orderBy('disabled_at', 'desc')
    .execute();
}

export async function upsertDisabledSite(db: Db, name: string, reason: string, at: string): Promise<void> {
  await db
    .insertInto('osint_disabled_sites')
    .values({ name, reason, disabled_at: at })
    .onConflict((oc) => oc.column('name').doUpdateSet({ reason, disabled_at: at }))
    .execute();
}

export async function deleteDisabledSite(db: Db, name: string): Promise<void> {
  await db.deleteFrom('osint_disabled_sites').where('name', '=', name).execute();
}

export async function insertReport(db: Db, row: Insertable<OsintSiteReportsTable>): Promise<void> {
  await db.insertInto('osint_site_reports').values(row).execute();
}

/** How many different members have an open report against `site`. */
export async function openReporterCount(db: Db, site: string): Promise<number> {
  const row = await db
    .selectFrom('osint_site_reports')
    .select((eb) => eb.fn.count<number>('reporter_id').distinct().as('n'))
    .where('site', '=', site)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function latestReports(db: Db, limit: number) {
  return db.selectFrom('osint_site_reports').selectAll().orderBy('created_at', 'desc').limit(limit).execute();
}

export function reportById(db: Db, id: string) {
  return db.selectFrom('osint_site_reports').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Sets `status` on every report of `site` that is in one of `from`. */
export async function setReportsStatus(db: Db, site: string, from: string[], status: string): Promise<void> {
  await db
    .updateTable('osint_site_reports')
    .set({ status })
    .where('site', '=', site)
    .where('status', 'in', from)
    .execute();
}

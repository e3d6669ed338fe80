import type { OsintSiteListInfo } from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import type { Site } from './sites.ts';

/** When the shipped list was taken from WhatsMyName (data/README.md; refresh.ts updates both). */
export const SHIPPED_LIST_DATE = '2026-08-16';
/** The disabled-sites row that records when the self-check last ran (not a site name: it has a slash). */
export const SELF_CHECK_MARK = '/self-check';

/** Sites taken out of scans by the self-check or after repeated reports. */
export async function disabledSiteNames(db: Db): Promise<Set<string>> {
  const rows = await db.selectFrom('osint_disabled_sites').select('name').execute();
  return new Set(rows.map((r) => r.name).filter((n) => n !== SELF_CHECK_MARK));
}

export async function disableSite(db: Db, name: string, reason: string): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto('osint_disabled_sites')
    .values({ name, reason: reason.slice(0, 300), disabled_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ reason: reason.slice(0, 300), disabled_at: now }))
    .execute();
}

export async function enableSite(db: Db, name: string): Promise<void> {
  await db.deleteFrom('osint_disabled_sites').where('name', '=', name).execute();
}

export async function siteListInfo(
  db: Db,
  sites: Site[],
  listDate: string | null = SHIPPED_LIST_DATE,
): Promise<OsintSiteListInfo> {
  const rows = await db.selectFrom('osint_disabled_sites').select(['name', 'disabled_at']).execute();
  const mark = rows.find((r) => r.name === SELF_CHECK_MARK);
  const names = new Set(sites.map((s) => s.name));
  const disabled = rows.filter((r) => r.name !== SELF_CHECK_MARK && names.has(r.name)).length;
  return {
    sites: sites.length - disabled,
    disabled,
    categories: [...new Set(sites.map((s) => s.cat))].sort(),
    listDate,
    lastSelfCheck: mark?.disabled_at ?? null,
  };
}

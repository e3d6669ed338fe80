import type { OsintSiteListInfo } from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import { deleteDisabledSite, disabledSiteRows, upsertDisabledSite } from './repo.ts';
import type { Site } from './sites.ts';

/** When the shipped list was taken from WhatsMyName (data/README.md; refresh.ts updates both). */
export const SHIPPED_LIST_DATE = '2026-08-16';
/** The disabled-sites row that records when the self-check last ran (not a site name: it has a slash). */
export const SELF_CHECK_MARK = '/self-check';

/** Sites taken out of scans by the self-check or after repeated reports, with why and since when. */
export async function disabledSites(db: Db): Promise<{ name: string; reason: string; disabledAt: string }[]> {
  const rows = await disabledSiteRows(db);
  return rows
    .filter((r) => r.name !== SELF_CHECK_MARK)
    .map((r) => ({ name: r.name, reason: r.reason, disabledAt: r.disabled_at }));
}

export async function disabledSiteNames(db: Db): Promise<Set<string>> {
  return new Set((await disabledSites(db)).map((r) => r.name));
}

/** Takes a site out of scans (or records the self-check's run under SELF_CHECK_MARK); `now` in ms. */
export function disableSite(db: Db, name: string, reason: string, now: number): Promise<void> {
  return upsertDisabledSite(db, name, reason.slice(0, 300), new Date(now).toISOString());
}

export function enableSite(db: Db, name: string): Promise<void> {
  return deleteDisabledSite(db, name);
}

export async function siteListInfo(
  db: Db,
  sites: Site[],
  listDate: string | null = SHIPPED_LIST_DATE,
): Promise<OsintSiteListInfo> {
  const rows = await disabledSiteRows(db);
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

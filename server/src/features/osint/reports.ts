import { randomUUID } from 'node:crypto';
import {
  isPlatformData,
  OSINT_HISTORY_TEXTS,
  OSINT_REPORTS_TO_DISABLE,
  type OsintReport,
  type OsintReportBody,
  type OsintReportsResponse,
} from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import { fail } from '../../platform/errors.ts';
import { recordActivity } from '../admin/index.ts';
import { getSearch } from './history.ts';
import { insertReport, latestReports, openReporterCount, reportById, setReportsStatus } from './repo.ts';
import { disabledSites, disableSite, enableSite } from './site-state.ts';

const REPORTS_LISTED = 200;
const REPORTED_REASON = `Reported wrong by ${OSINT_REPORTS_TO_DISABLE} members; waiting for an admin`;

type Member = { discord_id: string; username: string };

/**
 * "Report a wrong result" (issue 28): a member flags one site's verdict in one of their searches;
 * admins review the reports. A site reported by OSINT_REPORTS_TO_DISABLE different members is taken out
 * of scans until an admin decides (accepting keeps it out; dismissing every report brings it back).
 */
export async function fileReport(
  db: Db,
  now: number,
  keptDays: number,
  user: Member,
  body: OsintReportBody,
): Promise<{ id: string; siteDisabled: boolean }> {
  const search = await getSearch(db, user.discord_id, body.searchId, keptDays, now);
  if (!search) throw fail('NOT_FOUND', OSINT_HISTORY_TEXTS.notFound);
  const platform = search.sources
    .map((s) => s.data)
    .filter(isPlatformData)
    .find(
      (d) => d.sources.some((p) => p.name === body.site) || d.unchecked?.some((u) => u.name === body.site),
    );
  if (!platform) throw fail('BAD_SITE', 'That site is not in this search');
  if (/[\p{Cc}]/u.test(body.note ?? '')) throw fail('BAD_NOTE', 'note must not contain control characters');
  const id = randomUUID();
  await insertReport(db, {
    id,
    search_id: body.searchId,
    site: body.site,
    account: platform.account ?? search.query,
    verdict: body.verdict,
    note: body.note || null,
    reporter_id: user.discord_id,
    reporter_name: user.username,
    status: 'open',
    created_at: new Date(now).toISOString(),
  });
  const siteDisabled = (await openReporterCount(db, body.site)) >= OSINT_REPORTS_TO_DISABLE;
  if (siteDisabled) await disableSite(db, body.site, REPORTED_REASON, now);
  return { id, siteDisabled };
}

/** The admins' review list: the latest reports and the sites out of scans. */
export async function listReports(db: Db): Promise<OsintReportsResponse> {
  const rows = await latestReports(db, REPORTS_LISTED);
  return {
    reports: rows.map(
      (r): OsintReport => ({
        id: r.id,
        site: r.site,
        account: r.account,
        verdict: r.verdict,
        note: r.note,
        reporter: r.reporter_name,
        createdAt: r.created_at,
        status: r.status as OsintReport['status'],
      }),
    ),
    disabledSites: await disabledSites(db),
  };
}

/** An admin's decision on a report; recorded in the audit trail. */
export async function decideReport(
  db: Db,
  now: number,
  admin: Member,
  id: string,
  decision: 'accepted' | 'dismissed',
): Promise<{ site: string; siteDisabled: boolean }> {
  const report = await reportById(db, id);
  if (!report) throw fail('NOT_FOUND', 'Report not found');
  // Accepting closes the site's open reports; dismissing (re-enabling) closes every report that kept it
  // disabled, an earlier acceptance included, so the list never says "accepted" of a site that is
  // scanned again.
  await setReportsStatus(
    db,
    report.site,
    decision === 'accepted' ? ['open'] : ['open', 'accepted'],
    decision,
  );
  if (decision === 'accepted') await disableSite(db, report.site, 'A report was accepted by an admin', now);
  else await enableSite(db, report.site);
  await recordActivity(db, {
    actor: { id: admin.discord_id, username: admin.username },
    action: `osint.report.${decision}`,
    target: { id: report.id, name: report.site },
    details: { site: report.site, account: report.account },
  });
  return { site: report.site, siteDisabled: decision === 'accepted' };
}

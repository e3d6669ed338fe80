import { type OsintReport, OsintReportDecisionResponse, OsintReportsResponse } from '@guildhall/common';
import { apiFetch } from '../../api/client.ts';

/** The OSINT "wrong result" reports admins review (issue 28): GET and PUT /api/osint/reports. */

export type OsintReports = OsintReportsResponse;

export async function fetchOsintReports(): Promise<OsintReports> {
  return OsintReportsResponse.parse(await apiFetch('/api/osint/reports'));
}

export async function decideOsintReport(id: string, decision: 'accepted' | 'dismissed') {
  return OsintReportDecisionResponse.parse(
    await apiFetch(`/api/osint/reports/${encodeURIComponent(id)}`, { method: 'PUT', body: { decision } }),
  );
}

/** One reported site: its reports folded together, newest first. */
export type ReportedSite = {
  site: string;
  /** Distinct members among the open reports (all reports when none is open). */
  reporters: number;
  open: number;
  status: 'open' | 'accepted' | 'dismissed';
  /** Why the site is out of scans, when it is. */
  disabledReason: string | null;
  latest: OsintReport;
  /** The report a decision is sent on (the newest open one, else the newest). */
  decideOn: string;
  /** The accounts reported and the members' notes, newest first. */
  accounts: string[];
  notes: string[];
};

const VERDICTS: Record<string, string> = {
  found: 'says the account is there',
  not_found: 'says it is not that account (or none)',
  could_not_check: 'says the site could not be checked',
};
export const verdictText = (v: string) => VERDICTS[v] ?? v;

/** Reports grouped by site: open ones first, then disabled sites, then the rest; newest first within. */
export function reportedSites(data: OsintReports): ReportedSite[] {
  const disabled = new Map(data.disabledSites.map((d) => [d.name, d.reason]));
  const bySite = new Map<string, OsintReport[]>();
  for (const r of data.reports) bySite.set(r.site, [...(bySite.get(r.site) ?? []), r]);
  const rows = [...bySite].map(([site, reports]): ReportedSite => {
    const sorted = [...reports].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const open = sorted.filter((r) => r.status === 'open');
    const counted = open.length > 0 ? open : sorted;
    const latest = sorted[0]!;
    return {
      site,
      reporters: new Set(counted.map((r) => r.reporter)).size,
      open: open.length,
      status: open.length > 0 ? 'open' : latest.status,
      disabledReason: disabled.get(site) ?? null,
      latest,
      decideOn: (open[0] ?? latest).id,
      accounts: [...new Set(sorted.map((r) => r.account))],
      notes: sorted.map((r) => r.note).filter((n): n is string => !!n),
    };
  });
  const rank = (r: ReportedSite) => (r.open > 0 ? 0 : r.disabledReason ? 1 : 2);
  return rows.sort((a, b) => rank(a) - rank(b) || b.latest.createdAt.localeCompare(a.latest.createdAt));
}

/** Disabled sites nobody reported (the self-check took them out): shown, decided by the self-check. */
export function otherDisabledSites(data: OsintReports) {
  const reported = new Set(data.reports.map((r) => r.site));
  return data.disabledSites.filter((d) => !reported.has(d.name));
}

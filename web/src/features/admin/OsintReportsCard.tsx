import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Flag, RefreshCw } from 'lucide-react';
import { toast } from 'sonner';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card, CardTitle } from '../../ui/Card.tsx';
import {
  decideOsintReport,
  fetchOsintReports,
  otherDisabledSites,
  type ReportedSite,
  reportedSites,
  verdictText,
} from './osint-reports.ts';

const REPORTS_KEY = ['admin', 'osint-reports'] as const;
/** New reports show up without a reload (members report while the panel is open). */
const REFETCH_MS = 30_000;

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * OSINT "wrong result" reports (issue 28), one row per reported site: how many members reported it,
 * what they said, whether it is out of scans, and the decision: disable the site (accept), dismiss the
 * reports (the site is scanned again), or re-enable a disabled one. The list is fetched again after
 * every decision and every 30 s.
 */
export function OsintReportsCard({ disabled }: { disabled: boolean }) {
  const reports = useQuery({
    queryKey: REPORTS_KEY,
    queryFn: fetchOsintReports,
    refetchInterval: REFETCH_MS,
  });
  const sites = reports.data ? reportedSites(reports.data) : [];
  const others = reports.data ? otherDisabledSites(reports.data) : [];
  return (
    <Card className="mb-6" data-testid="osint-reports">
      <CardTitle
        icon={<Flag className="size-4" />}
        action={
          <Button
            size="sm"
            variant="ghost"
            onClick={() => void reports.refetch()}
            disabled={reports.isFetching}
            icon={<RefreshCw className="size-4" aria-hidden />}
            aria-label="Reload the OSINT reports"
          >
            <span className="hidden sm:inline">Reload</span>
          </Button>
        }
      >
        OSINT reports
      </CardTitle>
      <p className="mb-3 text-sm text-muted">
        Members flag a site whose result they believe is wrong. Three members reporting one site take it out
        of scans until you decide.
      </p>
      {reports.isPending ? (
        <p className="text-sm text-muted" role="status">
          Loading reports…
        </p>
      ) : reports.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-danger-text">
          <span>
            Could not load the reports
            {reports.error instanceof Error ? `: ${reports.error.message}` : ''}. Nothing is shown until they
            load.
          </span>
          <Button size="sm" variant="secondary" onClick={() => void reports.refetch()}>
            Try again
          </Button>
        </div>
      ) : sites.length === 0 ? (
        <p className="text-sm text-muted">No reports yet.</p>
      ) : (
        <ul className="divide-y divide-border/60" aria-label="Reported sites">
          {sites.map((s) => (
            <ReportRow key={s.site} row={s} disabled={disabled} />
          ))}
        </ul>
      )}
      {others.length > 0 && (
        <div className="mt-4">
          <h3 className="mb-1 text-sm font-semibold">Disabled by the self-check</h3>
          <p className="mb-2 text-xs text-muted">
            The self-check enables these again when they pass (npm run admin -- osint self-check).
          </p>
          <ul className="flex flex-wrap gap-1.5" aria-label="Sites disabled by the self-check">
            {others.map((d) => (
              <li key={d.name} title={d.reason}>
                <Badge>{d.name}</Badge>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  );
}

function StatusBadge({ row }: { row: ReportedSite }) {
  if (row.disabledReason) return <Badge tone="danger">Disabled</Badge>;
  if (row.open > 0) return <Badge tone="warning">Open</Badge>;
  return <Badge>{row.status === 'accepted' ? 'Accepted' : 'Dismissed'}</Badge>;
}

function ReportRow({ row, disabled }: { row: ReportedSite; disabled: boolean }) {
  const queryClient = useQueryClient();
  const decide = useMutation({
    mutationFn: (decision: 'accepted' | 'dismissed') => decideOsintReport(row.decideOn, decision),
    onSuccess: async (res) => {
      await queryClient.invalidateQueries({ queryKey: REPORTS_KEY });
      toast.success(res.siteDisabled ? `${res.site} is disabled` : `${res.site} is scanned again`);
    },
    onError: (e) => toast.error(e instanceof Error ? e.message : 'Could not save the decision'),
  });
  const busy = disabled || decide.isPending;
  const reporters = `${row.reporters} ${row.reporters === 1 ? 'member' : 'members'}`;
  return (
    <li
      className="flex flex-col gap-2 py-3 text-sm sm:flex-row sm:items-start sm:justify-between"
      data-site={row.site}
    >
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-medium break-all">{row.site}</span>
          <StatusBadge row={row} />
        </p>
        <p className="mt-0.5 text-xs text-muted">
          {reporters} {row.open > 0 ? `(${row.open} open)` : ''} · {verdictText(row.latest.verdict)} · account{' '}
          {row.accounts.slice(0, 3).join(', ')}
          {row.accounts.length > 3 ? ` +${row.accounts.length - 3}` : ''} ·{' '}
          <time dateTime={row.latest.createdAt}>{when(row.latest.createdAt)}</time>
        </p>
        {row.notes[0] && <p className="mt-0.5 text-xs break-words">“{row.notes[0]}”</p>}
        {row.disabledReason && <p className="mt-0.5 text-xs text-danger-text">{row.disabledReason}</p>}
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        {row.open > 0 && !row.disabledReason && (
          <Button size="sm" variant="danger" disabled={busy} onClick={() => decide.mutate('accepted')}>
            Disable site<span className="sr-only"> {row.site}</span>
          </Button>
        )}
        {row.open > 0 && row.disabledReason && (
          <Button size="sm" variant="danger" disabled={busy} onClick={() => decide.mutate('accepted')}>
            Keep disabled<span className="sr-only"> {row.site}</span>
          </Button>
        )}
        {row.open > 0 && (
          <Button size="sm" variant="secondary" disabled={busy} onClick={() => decide.mutate('dismissed')}>
            Dismiss<span className="sr-only"> the reports on {row.site}</span>
          </Button>
        )}
        {row.open === 0 && row.disabledReason && (
          <Button size="sm" variant="success" disabled={busy} onClick={() => decide.mutate('dismissed')}>
            Re-enable<span className="sr-only"> {row.site}</span>
          </Button>
        )}
      </div>
    </li>
  );
}

import { OSINT_TYPE_LABELS, type OsintHistoryEntry, type OsintSiteListInfo } from '@guildhall/common';
import { History, ListTree } from 'lucide-react';
import { Badge } from '../../ui/Badge.tsx';
import { Card, CardTitle } from '../../ui/Card.tsx';
import { listAge, RISK_TONE } from './view.ts';

/** The member's own past searches (kept `keptDays`), each reopened in one click. */
export function HistoryCard({
  searches,
  keptDays,
  activeId,
  onOpen,
  error,
}: {
  searches: OsintHistoryEntry[] | null;
  keptDays: number | null;
  activeId: string | null;
  onOpen: (id: string) => void;
  error: string | null;
}) {
  return (
    <Card data-testid="osint-history">
      <CardTitle icon={<History className="size-4" />}>Your searches</CardTitle>
      {error && <p className="text-sm text-danger-text">{error}</p>}
      {searches && searches.length === 0 && <p className="text-sm text-muted">No searches yet.</p>}
      {searches && searches.length > 0 && (
        <ul className="-mx-2 max-h-80 space-y-0.5 overflow-y-auto">
          {searches.map((s) => (
            <li key={s.id}>
              <button
                type="button"
                onClick={() => onOpen(s.id)}
                aria-current={s.id === activeId ? 'true' : undefined}
                className="flex w-full items-center justify-between gap-2 rounded-lg px-2 py-1.5 text-left text-sm hover:bg-surface-2 aria-[current=true]:bg-surface-2"
              >
                <span className="min-w-0">
                  <span className="block truncate">{s.query}</span>
                  <span className="block text-xs text-muted">
                    {OSINT_TYPE_LABELS[s.type].label} ·{' '}
                    {new Date(s.createdAt).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' })}
                  </span>
                </span>
                <Badge tone={RISK_TONE[s.overallRisk]}>
                  {s.overallRisk === 'INCONCLUSIVE' ? 'Inconclusive' : s.overallRisk}
                </Badge>
              </button>
            </li>
          ))}
        </ul>
      )}
      {keptDays !== null && (
        <p className="mt-2 text-xs text-muted">Kept for {keptDays} days, visible only to you.</p>
      )}
    </Card>
  );
}

/** The site list's size and age (admins refresh it and run the self-check; docs/osint.md). */
export function SiteListCard({ info }: { info: OsintSiteListInfo | null }) {
  if (!info) return null;
  return (
    <Card data-testid="osint-site-list">
      <CardTitle icon={<ListTree className="size-4" />}>Site list</CardTitle>
      <p className="text-sm">
        {info.sites} sites, WhatsMyName list {listAge(info.listDate)}.
      </p>
      <p className="mt-1 text-xs text-muted">
        {info.disabled > 0 ? `${info.disabled} disabled after failing checks or reports. ` : ''}
        {info.lastSelfCheck
          ? `Self-check last run ${new Date(info.lastSelfCheck).toLocaleDateString('en', { dateStyle: 'medium' })}.`
          : 'Self-check never run.'}
      </p>
    </Card>
  );
}

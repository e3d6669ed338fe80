import { OSINT_PLATFORMS_SHOWN, type PlatformData } from '@guildhall/common';
import { ExternalLink, Flag, Search } from 'lucide-react';
import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { reportWrongResult } from './api.ts';
import { categoriesOf, groupByReason, isWebUrl } from './view.ts';

export type Pivot = (type: 'username', query: string) => void;

/**
 * A platform-type source (§2/§9 and issue 28): every site found with its link (the first five, then an
 * expandable "+N more"), filters by the list's categories, the sites that could not be checked grouped
 * by why, "report a wrong result" on each found site, and a one-click search of the account on every site.
 */
export function PlatformList({
  data,
  searchId,
  onPivot,
  scannedEverySite,
}: {
  data: PlatformData;
  searchId?: string;
  onPivot?: Pivot;
  /** The source was a full username scan already: no pivot to the same search. */
  scannedEverySite: boolean;
}) {
  const [expanded, setExpanded] = useState(false);
  const [category, setCategory] = useState<string | null>(null);
  const unchecked = data.unchecked ?? [];
  const categories = categoriesOf([...data.sources, ...unchecked]);
  const inCategory = <T extends { category?: string }>(list: T[]) =>
    category ? list.filter((x) => x.category === category) : list;
  const found = inCategory(data.sources);
  const shown = expanded ? found : found.slice(0, OSINT_PLATFORMS_SHOWN);
  const more = found.length - shown.length;
  const groups = groupByReason(inCategory(unchecked));
  const { foundOn, totalPlatforms, unknown } = data.summary;
  const notFound = data.summary.notFound ?? totalPlatforms - foundOn - unknown;

  return (
    <div className="space-y-3 text-sm">
      <p className="text-muted" data-testid="platform-counts">
        Found on <strong className="text-text">{foundOn}</strong> of {totalPlatforms} sites · not found on{' '}
        {notFound}
        {unknown > 0 && (
          <>
            {' '}
            · <span className="text-warning-text">could not check {unknown}</span>
          </>
        )}
      </p>
      {data.account && onPivot && !scannedEverySite && (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => onPivot('username', data.account!)}
          data-testid="platform-pivot"
        >
          <Search className="size-3.5" /> Search “{data.account}” on every site
        </Button>
      )}
      {categories.length > 1 && (
        <fieldset className="flex flex-wrap gap-1.5" aria-label="Filter by category">
          {[null, ...categories].map((c) => (
            <button
              key={c ?? 'all'}
              type="button"
              aria-pressed={category === c}
              onClick={() => {
                setCategory(c);
                setExpanded(false);
              }}
              className={cn(
                'rounded-full border px-2.5 py-0.5 text-xs',
                category === c
                  ? 'border-brand bg-brand/15 text-brand-text'
                  : 'border-border text-muted hover:text-text',
              )}
            >
              {c ?? 'All'}
            </button>
          ))}
        </fieldset>
      )}
      {found.length > 0 && (
        <ul className="flex flex-wrap gap-2" data-testid="platform-list">
          {shown.map((p) => (
            <li
              key={`${p.name}|${p.url}`}
              className="inline-flex items-center gap-1 rounded-lg border border-brand/30 bg-brand/10 text-brand-text"
            >
              <a
                href={isWebUrl(p.url) ? p.url : undefined}
                target="_blank"
                rel="noopener noreferrer nofollow"
                className="inline-flex items-center gap-1.5 py-1 pl-2.5 hover:underline"
              >
                {p.name}
                <ExternalLink className="size-3 opacity-70" />
              </a>
              {searchId && <ReportButton searchId={searchId} site={p.name} />}
            </li>
          ))}
          {more > 0 && (
            <li>
              <button
                type="button"
                onClick={() => setExpanded(true)}
                className="rounded-lg bg-surface-2 px-2.5 py-1 text-muted hover:text-text"
                data-testid="platform-more"
              >
                +{more} more
              </button>
            </li>
          )}
          {expanded && found.length > OSINT_PLATFORMS_SHOWN && (
            <li>
              <button
                type="button"
                onClick={() => setExpanded(false)}
                className="rounded-lg px-2.5 py-1 text-muted hover:text-text"
              >
                Show fewer
              </button>
            </li>
          )}
        </ul>
      )}
      {groups.length > 0 && (
        <details
          className="rounded-xl border border-warning/30 bg-warning/5 px-3 py-2"
          data-testid="platform-unchecked"
        >
          <summary className="cursor-pointer text-warning-text">
            Could not check {groups.reduce((n, g) => n + g.items.length, 0)} sites — why
          </summary>
          <ul className="mt-2 space-y-2">
            {groups.map((g) => (
              <li key={g.reason}>
                <span className="font-medium">{g.reason}</span>{' '}
                <span className="text-muted">({g.items.length})</span>
                <p className="text-xs text-muted wrap-anywhere">
                  {g.items
                    .slice(0, 40)
                    .map((i) => i.name)
                    .join(', ')}
                  {g.items.length > 40 && ` and ${g.items.length - 40} more`}
                </p>
              </li>
            ))}
          </ul>
        </details>
      )}
      {data.disabled && data.disabled.length > 0 && (
        <p className="text-xs text-muted wrap-anywhere" data-testid="platform-disabled">
          Not scanned (disabled by admins or the self-check): {data.disabled.slice(0, 40).join(', ')}
          {data.disabled.length > 40 && ` and ${data.disabled.length - 40} more`}
        </p>
      )}
    </div>
  );
}

/** "This is not that person / not an account": a report admins review (repeated reports disable a site). */
function ReportButton({ searchId, site }: { searchId: string; site: string }) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | string>('idle');
  if (state === 'sent') return <span className="pr-2 text-xs opacity-80">Reported</span>;
  return (
    <button
      type="button"
      title={
        typeof state === 'string' && state !== 'idle' && state !== 'sending'
          ? state
          : `Report a wrong result on ${site}`
      }
      aria-label={`Report a wrong result on ${site}`}
      disabled={state === 'sending'}
      onClick={async () => {
        setState('sending');
        try {
          await reportWrongResult({ searchId, site, verdict: 'not_found' });
          setState('sent');
        } catch (err) {
          setState(err instanceof ApiError ? err.message : 'Could not send the report');
        }
      }}
      className="px-2 py-1 opacity-60 hover:opacity-100"
    >
      <Flag className="size-3" />
    </button>
  );
}

import { isPlatformData, OSINT_TYPE_LABELS, type OsintResult, type OsintSource } from '@guildhall/common';
import { Download, ExternalLink, Info, ListChecks, Printer, Search } from 'lucide-react';
import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card, CardTitle } from '../../ui/Card.tsx';
import { downloadExport } from './api.ts';
import { type Pivot, PlatformList } from './PlatformList.tsx';
import { formatValue, isFailedResult, isWebUrl, labelOf, RISK_TONE, STATE_TONE } from './view.ts';

/**
 * §2: the summary card, the details per source, and the additional-information grid from the metadata;
 * beyond the spec, export (JSON, CSV, print) of a stored search and one-click pivots to further searches.
 */
export function ResultView({ result, onPivot }: { result: OsintResult; onPivot?: Pivot }) {
  const metadata = Object.entries(result.metadata);
  return (
    <div className="space-y-4" data-testid="osint-result">
      {/* A failed search is only its Error source (§8): no summary of sources that never ran. */}
      {!isFailedResult(result) && <SummaryCard result={result} />}
      <div className="space-y-3">
        {result.sources.map((s) => (
          <SourceCard key={s.name} source={s} result={result} onPivot={onPivot} />
        ))}
      </div>
      {metadata.length > 0 && (
        <Card data-testid="osint-metadata">
          <CardTitle icon={<Info className="size-4" />}>Additional Information</CardTitle>
          <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {metadata.map(([key, value]) => (
              <div key={key} className="min-w-0 rounded-xl bg-bg/40 px-3 py-2">
                <dt className="text-xs text-muted">{labelOf(key)}</dt>
                <dd className="truncate text-sm" title={String(value)}>
                  {formatValue(value)}
                </dd>
              </div>
            ))}
          </dl>
        </Card>
      )}
    </div>
  );
}

function SummaryCard({ result }: { result: OsintResult }) {
  const { summary } = result;
  const stats: { label: string; value: React.ReactNode; testId: string }[] = [
    { label: 'Sources checked', value: summary.totalSources, testId: 'summary-sources' },
    ...(summary.platformsFound !== undefined
      ? [{ label: 'Platforms found', value: summary.platformsFound, testId: 'summary-platforms' }]
      : []),
    {
      label: 'Risk level',
      value: (
        <Badge tone={RISK_TONE[summary.overallRisk]}>
          {summary.overallRisk === 'INCONCLUSIVE' ? 'Inconclusive' : summary.overallRisk}
        </Badge>
      ),
      testId: 'summary-risk',
    },
    { label: 'Search type', value: OSINT_TYPE_LABELS[result.type].label, testId: 'summary-type' },
  ];
  return (
    <Card data-testid="osint-summary">
      <CardTitle icon={<ListChecks className="size-4" />}>
        <span className="min-w-0 wrap-anywhere">Results for {result.query}</span>
      </CardTitle>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {stats.map((s) => (
          <div key={s.label} className="rounded-xl bg-bg/40 px-3 py-2.5" data-testid={s.testId}>
            <dt className="text-xs text-muted">{s.label}</dt>
            <dd className="mt-1 text-lg font-semibold">{s.value}</dd>
          </div>
        ))}
      </dl>
      {summary.inconclusive && (
        <p
          className="mt-3 rounded-xl border border-warning/30 bg-warning/10 px-3 py-2 text-sm text-warning-text"
          data-testid="summary-inconclusive"
        >
          {summary.inconclusive}
        </p>
      )}
      {result.id && <ExportBar id={result.id} />}
    </Card>
  );
}

/** Export of the stored search: the server's JSON and CSV, and the browser's print (a printable report). */
function ExportBar({ id }: { id: string }) {
  const [error, setError] = useState<string | null>(null);
  const get = (format: 'json' | 'csv') => () => {
    setError(null);
    downloadExport(id, format).catch((err: unknown) =>
      setError(err instanceof ApiError ? err.message : 'Export failed'),
    );
  };
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2 print:hidden" data-testid="osint-export">
      <Button size="sm" variant="secondary" onClick={get('json')}>
        <Download className="size-3.5" /> JSON
      </Button>
      <Button size="sm" variant="secondary" onClick={get('csv')}>
        <Download className="size-3.5" /> CSV
      </Button>
      <Button size="sm" variant="secondary" onClick={() => window.print()}>
        <Printer className="size-3.5" /> Print
      </Button>
      {error && <span className="text-sm text-danger-text">{error}</span>}
    </div>
  );
}

function SourceCard({
  source,
  result,
  onPivot,
}: {
  source: OsintSource;
  result: OsintResult;
  onPivot?: Pivot;
}) {
  const unchecked = source.state === 'could_not_check';
  return (
    <Card className="p-4 sm:p-5" data-testid="osint-source" data-source={source.name}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h3 className="flex min-w-0 items-center gap-2 font-semibold">
          <span className="wrap-anywhere">{source.name}</span>
          {isWebUrl(source.url) && (
            <a
              href={source.url}
              target="_blank"
              rel="noopener noreferrer nofollow"
              className="text-muted hover:text-text"
              aria-label={`Open ${source.name}`}
            >
              <ExternalLink className="size-3.5" />
            </a>
          )}
        </h3>
        <div className="flex items-center gap-2">
          <Badge tone={source.status === 'Failed' ? 'danger' : STATE_TONE[source.state]}>
            {source.status}
          </Badge>
          {/* A source that could not check has no risk to show: "none" would be a claim. */}
          {!unchecked && (
            <span title={source.riskRule ?? undefined}>
              <Badge tone={RISK_TONE[source.risk]}>Risk: {source.risk}</Badge>
            </span>
          )}
        </div>
      </div>
      {unchecked && source.reason && (
        <p className="mb-3 text-sm text-warning-text" data-testid="source-reason">
          Could not check: {source.reason}
        </p>
      )}
      {!unchecked && source.riskRule && source.risk !== 'none' && (
        <p className="mb-3 text-xs text-muted" data-testid="source-risk-rule">
          Why {source.risk}: {source.riskRule}
        </p>
      )}
      {isPlatformData(source.data) ? (
        <PlatformList
          data={source.data}
          searchId={result.id}
          onPivot={onPivot}
          scannedEverySite={result.type === 'username'}
        />
      ) : source.name === 'Candidate Usernames' && onPivot ? (
        <CandidateList data={source.data} onPivot={onPivot} />
      ) : (
        <DataTree value={source.data} depth={0} />
      )}
    </Card>
  );
}

/** A person's candidate usernames, each one click from a search on every site; then the links. */
function CandidateList({ data, onPivot }: { data: unknown; onPivot: Pivot }) {
  const { candidates = [], links = [] } = (data ?? {}) as {
    candidates?: string[];
    links?: { name: string; url: string }[];
  };
  return (
    <div className="space-y-3 text-sm">
      <ul className="flex flex-wrap gap-2" data-testid="candidate-list">
        {candidates.map((c) => (
          <li key={c}>
            <Button size="sm" variant="secondary" onClick={() => onPivot('username', c)}>
              <Search className="size-3.5" /> {c}
            </Button>
          </li>
        ))}
      </ul>
      <ul className="flex flex-wrap gap-3">
        {links
          .filter((l) => isWebUrl(l.url))
          .map((l) => (
            <li key={l.url}>
              <a
                href={l.url}
                target="_blank"
                rel="noopener noreferrer nofollow"
                className="text-brand-text hover:underline"
              >
                {l.name}
              </a>
            </li>
          ))}
      </ul>
    </div>
  );
}

/** Any other source's data as a readable list: keys labelled, lists as chips, nested objects indented. */
function DataTree({ value, depth }: { value: unknown; depth: number }) {
  if (value === null || typeof value !== 'object')
    return <span className="wrap-anywhere">{formatValue(value)}</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="text-muted">None</span>;
    if (value.every((v) => v === null || typeof v !== 'object')) {
      // Plain values as chips, each shown once.
      const texts = [...new Set(value.map(formatValue))];
      return (
        <ul className="flex flex-wrap gap-1.5">
          {texts.slice(0, 50).map((text) => (
            <li key={text} className="rounded-md bg-surface-2 px-2 py-0.5 text-xs wrap-anywhere">
              {text}
            </li>
          ))}
          {texts.length > 50 && <li className="px-2 py-0.5 text-xs text-muted">+{texts.length - 50} more</li>}
        </ul>
      );
    }
    return (
      <ul className="space-y-2">
        {value.slice(0, 20).map((v, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a static list of records without ids
          <li key={i} className="rounded-lg border border-border/60 px-3 py-2">
            <DataTree value={v} depth={depth + 1} />
          </li>
        ))}
      </ul>
    );
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return <span className="text-muted">No details</span>;
  return (
    <dl
      className={
        depth === 0
          ? 'grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[minmax(8rem,auto)_1fr]'
          : 'grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[minmax(7rem,auto)_1fr]'
      }
    >
      {entries.map(([key, v]) => (
        <div key={key} className="contents">
          <dt className="text-muted">{labelOf(key)}</dt>
          <dd className="min-w-0">
            {isWebUrl(typeof v === 'string' ? v : null) ? (
              <a
                href={v as string}
                target="_blank"
                rel="noopener noreferrer nofollow"
                className="wrap-anywhere text-brand-text hover:underline"
              >
                {v as string}
              </a>
            ) : (
              <DataTree value={v} depth={depth + 1} />
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

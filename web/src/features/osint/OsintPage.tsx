import {
  OSINT_TEXTS,
  type OsintHistoryEntry,
  type OsintResult,
  type OsintSiteListInfo,
  type OsintType,
} from '@guildhall/common';
import { Radar } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { ApiError, getStoredToken } from '../../api/client.ts';
import { BackLink } from '../../ui/BackLink.tsx';
import { Card } from '../../ui/Card.tsx';
import { Page } from '../../ui/Page.tsx';
import { listSearches, openSearch, searchOsint, siteListInfo } from './api.ts';
import { HistoryCard, SiteListCard } from './HistoryCard.tsx';
import { ResultView } from './ResultView.tsx';
import { SearchForm } from './SearchForm.tsx';
import { DatabasesCard, Disclaimer, ToolsCard } from './SidePanel.tsx';
import { type ScanProgress, useScanProgress } from './useScanProgress.ts';
import { failedResult } from './view.ts';

/** /infosec (portal-tools §2 OSINT): search by type, the result, the tools and databases, the disclaimer. */
export function OsintPage() {
  const [type, setType] = useState<OsintType>('email');
  const [query, setQuery] = useState('');
  const [running, setRunning] = useState(false);
  const [searchId, setSearchId] = useState<string | null>(null);
  const [result, setResult] = useState<OsintResult | null>(null);
  const progress = useScanProgress(running ? searchId : null);
  const [history, setHistory] = useState<{ searches: OsintHistoryEntry[]; keptDays: number } | null>(null);
  const [historyError, setHistoryError] = useState<string | null>(null);
  const [sites, setSites] = useState<OsintSiteListInfo | null>(null);

  const refreshHistory = useCallback(() => {
    if (!getStoredToken()) return;
    listSearches().then(
      (h) => {
        setHistory(h);
        setHistoryError(null);
      },
      (err: unknown) =>
        setHistoryError(err instanceof ApiError ? err.message : 'Could not load your searches'),
    );
  }, []);
  // The site list's figures change when admins disable or enable sites: read again after each search.
  const refreshSites = useCallback(() => {
    if (getStoredToken()) siteListInfo().then(setSites, () => setSites(null));
  }, []);
  useEffect(() => {
    refreshHistory();
    refreshSites();
  }, [refreshHistory, refreshSites]);

  const run = async (t: OsintType = type, raw: string = query) => {
    const q = raw.trim();
    if (!q || running) return;
    if (!getStoredToken()) {
      setResult(failedResult(t, q, OSINT_TEXTS.authRequired));
      return;
    }
    const id = crypto.randomUUID();
    setSearchId(id);
    setRunning(true);
    setResult(null);
    try {
      setResult(await searchOsint(t, q, id));
    } catch (err) {
      setResult(failedResult(t, q, err instanceof ApiError ? err.message : OSINT_TEXTS.searchFailed));
    } finally {
      setRunning(false);
      refreshHistory();
      refreshSites();
    }
  };

  /** A pivot: a found profile's or a candidate's username, searched on every site in one click. */
  const pivot = (t: OsintType, q: string) => {
    setType(t);
    setQuery(q);
    window.scrollTo({ top: 0, behavior: 'smooth' });
    void run(t, q);
  };

  const reopen = async (id: string) => {
    if (running) return;
    try {
      const past = await openSearch(id);
      setType(past.type);
      setQuery(past.query);
      setResult(past);
    } catch (err) {
      setHistoryError(err instanceof ApiError ? err.message : 'Could not open that search');
    }
  };

  return (
    <Page wide>
      <div className="mb-6">
        <BackLink to="/dashboard">Back to Dashboard</BackLink>
      </div>
      <header className="mb-6">
        <p className="text-sm text-muted">InfoSec</p>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">OSINT Tools</h1>
      </header>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_300px]">
        <div className="min-w-0 space-y-4">
          <Disclaimer />
          <SearchForm
            type={type}
            query={query}
            running={running}
            onType={setType}
            onQuery={setQuery}
            onSubmit={() => void run()}
          />
          {running && <ProgressCard type={type} progress={progress} />}
          {result && <ResultView result={result} onPivot={running ? undefined : pivot} />}
        </div>
        <aside className="space-y-4 print:hidden">
          <HistoryCard
            searches={history?.searches ?? null}
            keptDays={history?.keptDays ?? null}
            activeId={result?.id ?? null}
            onOpen={(id) => void reopen(id)}
            error={historyError}
          />
          <SiteListCard info={sites} />
          <ToolsCard />
          <DatabasesCard />
        </aside>
      </div>
    </Page>
  );
}

/** While a search runs: for scans, sites checked / total and the hits so far (pushed over the realtime channel). */
function ProgressCard({ type, progress }: { type: OsintType; progress: ScanProgress | null }) {
  const pct = progress && progress.total > 0 ? Math.round((progress.checked / progress.total) * 100) : 0;
  return (
    <Card data-testid="osint-progress" aria-live="polite">
      <div className="mb-2 flex items-center justify-between gap-2 text-sm">
        <span className="flex items-center gap-2 font-medium">
          <Radar className="size-4 animate-pulse text-brand" />
          {type === 'username' ? 'Scanning sites…' : 'Querying sources…'}
        </span>
        {progress && (
          <span className="text-muted" data-testid="osint-progress-count">
            {progress.checked} / {progress.total} sites checked
          </span>
        )}
      </div>
      {progress && (
        <>
          <div className="h-2 overflow-hidden rounded-full bg-surface-2">
            <div className="h-full rounded-full bg-brand transition-[width]" style={{ width: `${pct}%` }} />
          </div>
          {progress.hits.length > 0 && (
            <p className="mt-3 text-sm text-muted" data-testid="osint-progress-hits">
              Found so far: <span className="text-text">{progress.hits.map((h) => h.name).join(', ')}</span>
            </p>
          )}
        </>
      )}
    </Card>
  );
}

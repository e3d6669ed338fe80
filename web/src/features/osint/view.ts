import {
  OSINT_TEXTS,
  type OsintResult,
  type OsintType,
  type OverallRisk,
  type SourceRisk,
  type SourceState,
} from '@guildhall/common';

/** §8: a failed search is shown as a result with one "Error" source, status Failed. */
export function failedResult(type: OsintType, query: string, message: string): OsintResult {
  return {
    query,
    type,
    summary: { totalSources: 1, overallRisk: 'INCONCLUSIVE' },
    sources: [
      {
        name: OSINT_TEXTS.errorSourceName,
        status: OSINT_TEXTS.failedStatus,
        data: {
          error: OSINT_TEXTS.searchFailed,
          ...(message && message !== OSINT_TEXTS.searchFailed ? { detail: message } : {}),
        },
        risk: 'none',
        url: null,
        state: 'could_not_check',
        reason: message || OSINT_TEXTS.searchFailed,
      },
    ],
    metadata: {},
  };
}

export function isFailedResult(result: OsintResult): boolean {
  const [only, ...rest] = result.sources;
  return (
    rest.length === 0 &&
    only?.name === OSINT_TEXTS.errorSourceName &&
    only.status === OSINT_TEXTS.failedStatus
  );
}

export const RISK_TONE: Record<
  SourceRisk | OverallRisk,
  'success' | 'warning' | 'danger' | 'neutral' | 'brand'
> = {
  INCONCLUSIVE: 'neutral',
  high: 'danger',
  medium: 'warning',
  low: 'success',
  none: 'neutral',
  HIGH: 'danger',
  MEDIUM: 'warning',
  LOW: 'success',
};

/** "sitesChecked" → "Sites checked", "e164" → "E164". */
export function labelOf(key: string): string {
  const spaced = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** A value for display: dates of ISO form shortened, booleans as yes/no, empties as —. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return value.toLocaleString('en');
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T[\d:.]+Z?$/.test(value)) {
    return new Date(value).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });
  }
  return String(value);
}

/** Only web links are rendered as links (a tel: or other scheme is shown as text). */
export function isWebUrl(url: string | null | undefined): url is string {
  return typeof url === 'string' && /^https?:\/\//.test(url);
}

/** Distinct colours per state: found, checked and not found, could not check. */
export const STATE_TONE: Record<SourceState, 'brand' | 'success' | 'warning'> = {
  found: 'brand',
  not_found: 'success',
  could_not_check: 'warning',
};

/** The sites that could not be checked, grouped by why (largest group first). */
export function groupByReason<T extends { reason: string }>(items: T[]): { reason: string; items: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(item.reason, [...(groups.get(item.reason) ?? []), item]);
  return [...groups]
    .map(([reason, list]) => ({ reason, items: list }))
    .sort((a, b) => b.items.length - a.items.length || a.reason.localeCompare(b.reason));
}

/** The categories (the site list's `cat`) present among found and unchecked sites, sorted. */
export function categoriesOf(items: { category?: string }[]): string[] {
  return [...new Set(items.map((i) => i.category).filter((c): c is string => !!c))].sort();
}

/** "2026-08-16" → "from 16 Aug 2026, 101 days old". */
export function listAge(date: string | null, now = Date.now()): string {
  if (!date) return 'of unknown age';
  const t = Date.parse(date);
  if (Number.isNaN(t)) return 'of unknown age';
  const days = Math.max(0, Math.floor((now - t) / 86_400_000));
  const when = new Date(t).toLocaleDateString('en', { day: 'numeric', month: 'short', year: 'numeric' });
  return `from ${when}, ${days} day${days === 1 ? '' : 's'} old`;
}

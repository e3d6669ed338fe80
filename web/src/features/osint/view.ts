import {
  OSINT_TEXTS,
  type OsintResult,
  type OsintType,
  type OverallRisk,
  type SourceRisk,
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

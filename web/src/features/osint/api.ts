import {
  type OsintHistoryResponse,
  type OsintReportBody,
  type OsintResult,
  OsintSearchResponse,
  type OsintSiteListInfo,
  type OsintType,
} from '@guildhall/common';
import { ApiError, apiFetch, errorFromResponse, getStoredToken } from '../../api/client.ts';

/** POST /api/osint/search (portal-tools §7); the response is parsed with the shared contract. */
export async function searchOsint(type: OsintType, query: string, searchId: string): Promise<OsintResult> {
  const res = await apiFetch('/api/osint/search', { method: 'POST', body: { type, query, searchId } });
  return OsintSearchResponse.parse(res).results;
}

/** The member's own past searches (newest first) and how long they are kept. */
export function listSearches(): Promise<OsintHistoryResponse> {
  return apiFetch('/api/osint/searches');
}

/** A past search, as it was shown. */
export async function openSearch(id: string): Promise<OsintResult> {
  const res = await apiFetch(`/api/osint/searches/${encodeURIComponent(id)}`);
  return OsintSearchResponse.parse(res).results;
}

export function siteListInfo(): Promise<OsintSiteListInfo> {
  return apiFetch('/api/osint/sites');
}

export function reportWrongResult(body: OsintReportBody): Promise<{ id: string; siteDisabled: boolean }> {
  return apiFetch('/api/osint/reports', { method: 'POST', body });
}

/** Downloads the server's export of a stored search (JSON or CSV) as a file. */
export async function downloadExport(id: string, format: 'json' | 'csv'): Promise<void> {
  const token = getStoredToken();
  const res = await fetch(`/api/osint/searches/${encodeURIComponent(id)}/export?format=${format}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  }).catch(() => null);
  if (!res) throw new ApiError('Network error', 0);
  if (!res.ok) throw await errorFromResponse(res);
  const name =
    /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `osint.${format}`;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked on the next task: the click has started the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

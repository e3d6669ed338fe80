import { type OsintResult, OsintSearchResponse, type OsintType } from '@guildhall/common';
import { apiFetch } from '../../api/client.ts';

/** POST /api/osint/search (portal-tools §7); the response is parsed with the shared contract. */
export async function searchOsint(type: OsintType, query: string, searchId: string): Promise<OsintResult> {
  const res = await apiFetch('/api/osint/search', { method: 'POST', body: { type, query, searchId } });
  return OsintSearchResponse.parse(res).results;
}

import { OAUTH_DUPLICATE_CODE_GUARD_MS } from '@guildhall/common';

const KEY = 'discord_oauth_code_guard';
const inFlight = new Set<string>();

export type GuardResult = 'proceed' | 'same-page-duplicate' | 'duplicate';

/**
 * The 5 s duplicate-code guard (portal-core §4): a second handling of the same code within 5 s is
 * ignored. Within this page (e.g. a re-run effect) it is silently skipped; from a reload it reports
 * "Request already in progress.".
 */
export function claimCode(code: string, now = Date.now()): GuardResult {
  if (inFlight.has(code)) return 'same-page-duplicate';
  try {
    const prev = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as { code: string; at: number } | null;
    if (prev && prev.code === code && now - prev.at < OAUTH_DUPLICATE_CODE_GUARD_MS) return 'duplicate';
  } catch {
    // unreadable guard: treat as absent
  }
  sessionStorage.setItem(KEY, JSON.stringify({ code, at: now }));
  inFlight.add(code);
  return 'proceed';
}

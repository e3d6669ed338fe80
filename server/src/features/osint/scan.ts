import type { OsintSource, PlatformData } from '@guildhall/common';
import type { Outbound } from '../../platform/outbound/index.ts';
import type { ProgressSink } from './context.ts';
import { platformRisk } from './risk.ts';
import { judgeResponse, type Site, type SiteOutcome, siteUrls } from './sites.ts';
import { source } from './source-result.ts';

export type SiteCheck = { site: Site; outcome: SiteOutcome; url: string; reason?: string };

/** Checks one site for an account; any failure (timeout, refusal, reset) is an unknown, never a hit. */
export async function checkSite(
  outbound: Outbound,
  site: Site,
  account: string,
  timeoutMs: number,
): Promise<SiteCheck> {
  const { check, profile } = siteUrls(site, account);
  try {
    const res = await outbound.fetch(check, {
      method: site.post_body ? 'POST' : 'GET',
      body: site.post_body?.replaceAll('{account}', account),
      headers: site.headers,
      timeoutMs,
      // WhatsMyName describes a miss by its redirect status on some sites: the first answer is judged.
      followRedirects: false,
    });
    return { site, outcome: judgeResponse(site, res.status, res.body), url: profile };
  } catch (err) {
    return { site, outcome: 'unknown', url: profile, reason: err instanceof Error ? err.message : 'failed' };
  }
}

const PROGRESS_INTERVAL_MS = 150;

/**
 * Checks every site in parallel (the fetcher's global cap bounds what is in flight) and reports progress:
 * the count checked at most every 150 ms, and each hit as it comes.
 */
export async function scanSites(
  outbound: Outbound,
  sites: Site[],
  account: string,
  timeoutMs: number,
  onProgress?: ProgressSink,
): Promise<SiteCheck[]> {
  let checked = 0;
  let lastReport = 0;
  let pendingHits: { name: string; url: string }[] = [];
  const report = (force: boolean) => {
    if (!onProgress) return;
    const now = Date.now();
    if (!force && pendingHits.length === 0 && now - lastReport < PROGRESS_INTERVAL_MS) return;
    lastReport = now;
    onProgress({ checked, total: sites.length, hits: pendingHits });
    pendingHits = [];
  };
  report(true);
  const results = await Promise.all(
    sites.map(async (site) => {
      const result = await checkSite(outbound, site, account, timeoutMs);
      checked += 1;
      if (result.outcome === 'found') pendingHits.push({ name: site.name, url: result.url });
      report(checked === sites.length);
      return result;
    }),
  );
  return results;
}

/** A platform-type source (§3): the platforms found, with how many were checked and how many were unknown. */
export function platformSource(name: string, checks: SiteCheck[], url: string | null = null): OsintSource {
  const found = checks.filter((c) => c.outcome === 'found');
  const unknown = checks.filter((c) => c.outcome === 'unknown').length;
  const data: PlatformData = {
    sources: found.map((c) => ({ name: c.site.name, status: 'Found', url: c.url })),
    summary: { foundOn: found.length, totalPlatforms: checks.length, unknown },
  };
  const status = found.length > 0 ? `Found on ${found.length}` : 'Not found';
  return source(name, status, data, platformRisk(found.length), url);
}

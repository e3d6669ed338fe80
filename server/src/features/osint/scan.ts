import { type OsintSource, type PlatformData, OSINT_UNCHECKED_REASONS as R } from '@guildhall/common';
import { type Clock, waitOn } from '../../platform/feature.ts';
import {
  type FetchResult,
  findRefusal,
  mergeHeaders,
  type Outbound,
  OutboundTimeoutError,
} from '../../platform/outbound/index.ts';
import type { OsintContext, ProgressSink } from './context.ts';
import { asksToReload, createCookieJar } from './cookie-jar.ts';
import { platformRisk } from './risk.ts';
import { type Site, siteUrls } from './sites.ts';
import { source } from './source-result.ts';
import { judge, type SiteOutcome } from './verdict.ts';

/** One check's limits: its time limit, the search's stop signal, and the clock its waits run on. */
export type ScanOptions = { timeoutMs: number; signal?: AbortSignal; clock: Clock };

/** A search's scan options: the configured per-site limit, its stop signal, its clock. */
export function scanOptions(ctx: OsintContext): ScanOptions {
  return { timeoutMs: ctx.config.siteTimeoutMs, signal: ctx.signal, clock: ctx.clock };
}

export type SiteCheck = { site: Site; outcome: SiteOutcome; url: string; reason?: string };

/** How much of a profile page is searched for the site's markers (streamed, not kept). */
export const SCAN_MAX_BYTES = 8 * 1024 * 1024;
/** The start of a page kept for block-page signatures. */
const HEAD_CHARS = 64 * 1024;
const DEFAULT_RETRY_AFTER_MS = 1000;

/** Browser-like headers for profile pages (sites answer bare clients with block pages); a site's own replace them. */
const PAGE_HEADERS = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-language': 'en-US,en;q=0.9',
};

/** Verdict reasons of a wall that may let a client with its cookies through on the next load (not captchas). */
const COOKIE_WALLS = new Set<string>([R.cloudflare, R.ddosGuard, R.incapsula, R.blocked]);

/**
 * Checks one site for an account. A timeout or a 429 is retried once (a 429 after the site's Retry-After,
 * if that fits in the site's time limit); an interstitial that set cookies and asks for the page again
 * (or a bot wall that set cookies) is loaded once more with them (a jar of this check only). Any failure
 * is an unknown with its reason, never a hit or a miss.
 */
export async function checkSite(
  outbound: Outbound,
  site: Site,
  account: string,
  { timeoutMs, signal, clock }: ScanOptions,
): Promise<SiteCheck> {
  const { check, profile } = siteUrls(site, account);
  const jar = createCookieJar();
  const attempt = () => {
    const cookie = jar.header();
    const own = Object.entries(site.headers ?? {}).find(([k]) => k.toLowerCase() === 'cookie')?.[1];
    return outbound.fetch(check, {
      method: site.post_body ? 'POST' : 'GET',
      body: site.post_body?.replaceAll('{account}', account),
      headers: mergeHeaders(
        { ...PAGE_HEADERS, ...site.headers },
        cookie ? { cookie: own ? `${own}; ${cookie}` : cookie } : undefined,
      ),
      timeoutMs,
      signal,
      // WhatsMyName describes a miss by its redirect status on some sites: the first answer is judged.
      followRedirects: false,
      scan: {
        markers: [site.e_string, site.m_string],
        caseless: [account],
        maxBytes: SCAN_MAX_BYTES,
        keepChars: HEAD_CHARS,
      },
    });
  };
  const verdictOf = (res: FetchResult) =>
    judge(
      site,
      {
        status: res.status,
        headers: res.headers,
        head: res.body,
        hasHit: res.markers?.[0] ?? false,
        hasMiss: res.markers?.[1] ?? false,
        hasAccount: res.caseless?.[0] ?? false,
      },
      account,
    );
  try {
    let res: FetchResult;
    try {
      res = await attempt();
      if (res.status === 429) {
        const wait = retryAfterMs(res.headers['retry-after'], timeoutMs, clock.now());
        if (wait === null) return { site, outcome: 'unknown', url: profile, reason: R.rateLimited };
        await waitOn(clock, wait, signal);
        res = await attempt();
      }
    } catch (err) {
      if (!(err instanceof OutboundTimeoutError) || signal?.aborted) throw err;
      res = await attempt();
    }
    let verdict = verdictOf(res);
    if (verdict.outcome === 'unknown' && jar.take(res.setCookies) > 0) {
      const reload =
        asksToReload(check, res.status, res.headers, res.body) ||
        (verdict.reason !== undefined && COOKIE_WALLS.has(verdict.reason));
      if (reload) verdict = verdictOf(await attempt());
    }
    return { site, outcome: verdict.outcome, url: profile, reason: verdict.reason };
  } catch (err) {
    return { site, outcome: 'unknown', url: profile, reason: failureReason(err, signal) };
  }
}

/** How long a 429's Retry-After asks to wait, or null when that is longer than the site's time limit. */
function retryAfterMs(header: string | undefined, limitMs: number, now: number): number | null {
  if (!header) return DEFAULT_RETRY_AFTER_MS;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  if (!Number.isFinite(ms)) return DEFAULT_RETRY_AFTER_MS;
  return ms > limitMs ? null : Math.max(0, ms);
}

/** A failure in member-facing words (grouped on the screen). */
export function failureReason(err: unknown, signal?: AbortSignal): string {
  if (signal?.aborted) return R.aborted;
  if (findRefusal(err)) return R.refused;
  if (err instanceof OutboundTimeoutError) return R.timeout;
  const code = errorCode(err);
  if (
    code === 'ENOTFOUND' ||
    code === 'ENODATA' ||
    code === 'ESERVFAIL' ||
    code === 'ETIMEOUT' ||
    code === 'EREFUSED'
  )
    return R.dns;
  if (code?.startsWith('UND_ERR_') && code.includes('TIMEOUT')) return R.timeout;
  return R.unreachable;
}

function errorCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const PROGRESS_INTERVAL_MS = 150;

/**
 * Checks every site in parallel (the fetcher's caps bound what is in flight: globally, per member and per
 * host) and reports progress: the count checked at most every 150 ms, and each hit as it comes.
 */
export async function scanSites(
  outbound: Outbound,
  sites: Site[],
  account: string,
  options: ScanOptions & { onProgress?: ProgressSink },
): Promise<SiteCheck[]> {
  const { onProgress, clock } = options;
  let checked = 0;
  let lastReport = 0;
  let pendingHits: { name: string; url: string }[] = [];
  const report = (force: boolean) => {
    if (!onProgress) return;
    const now = clock.now();
    if (!force && pendingHits.length === 0 && now - lastReport < PROGRESS_INTERVAL_MS) return;
    lastReport = now;
    onProgress({ checked, total: sites.length, hits: pendingHits });
    pendingHits = [];
  };
  report(true);
  return Promise.all(
    sites.map(async (site) => {
      const result = await checkSite(outbound, site, account, options);
      checked += 1;
      if (result.outcome === 'found') pendingHits.push({ name: site.name, url: result.url });
      report(checked === sites.length);
      return result;
    }),
  );
}

/** How sure a platform source is: unknowns at or above this share of the sites, with nothing found, are inconclusive. */
const INCONCLUSIVE_SHARE = 0.5;

export type PlatformRiskMode = 'account' | 'candidate';

/**
 * A platform-type source (§3): the platforms found (with their category), every site that could not be
 * checked with why, and a tri-state outcome. Nothing found while most sites could not be checked is
 * "could not check", never "Not found".
 */
export function platformSource(
  name: string,
  checks: SiteCheck[],
  account: string,
  mode: PlatformRiskMode = 'account',
  url: string | null = null,
  disabled: string[] = [],
): OsintSource {
  const found = checks.filter((c) => c.outcome === 'found');
  const unknown = checks.filter((c) => c.outcome === 'unknown');
  const notFound = checks.length - found.length - unknown.length;
  const data: PlatformData = {
    sources: found.map((c) => ({ name: c.site.name, status: 'Found', url: c.url, category: c.site.cat })),
    summary: { foundOn: found.length, totalPlatforms: checks.length, unknown: unknown.length, notFound },
    unchecked: unknown.map((c) => ({
      name: c.site.name,
      url: c.url,
      reason: c.reason ?? R.unexpected,
      category: c.site.cat,
    })),
    account,
    ...(disabled.length > 0 ? { disabled } : {}),
  };
  if (found.length > 0) {
    const { risk, rule } = platformRisk(found.length, mode);
    return { ...source(name, `Found on ${found.length}`, data, risk, url), state: 'found', riskRule: rule };
  }
  if (checks.length === 0 || unknown.length / checks.length >= INCONCLUSIVE_SHARE) {
    return {
      ...source(name, 'Could not check', data, 'none', url),
      state: 'could_not_check',
      reason: unreachedReason(unknown, checks.length),
    };
  }
  return {
    ...source(name, 'Not found', data, 'none', url),
    state: 'not_found',
    riskRule: `Not found on the ${notFound} platforms checked`,
  };
}

function unreachedReason(unknown: SiteCheck[], total: number): string {
  if (total === 0) return 'No sites to check';
  const counts = new Map<string, number>();
  for (const c of unknown)
    counts.set(c.reason ?? R.unexpected, (counts.get(c.reason ?? R.unexpected) ?? 0) + 1);
  const [top] = [...counts].sort((a, b) => b[1] - a[1]);
  const what =
    unknown.length === total ? `None of the ${total} sites` : `${unknown.length} of ${total} sites`;
  return `${what} could be checked${top ? ` (mostly: ${top[0].toLowerCase()})` : ''}`;
}

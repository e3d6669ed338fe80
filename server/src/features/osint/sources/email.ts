import { createHash } from 'node:crypto';
import type { OsintSource } from '@guildhall/common';
import { type OsintContext, SOURCE_TIMEOUT_MS } from '../context.ts';
import { breachRisk, disposableRisk, gravatarRisk } from '../risk.ts';
import { platformSource, scanOptions, scanSites } from '../scan.ts';
import { topSites } from '../sites.ts';
import { nothing, runSource, SOURCE_FAILURES, source, unchecked } from '../source-result.ts';
import type { SourceSet } from './username.ts';

type DisposableLists = { exact: Set<string>; wildcard: Set<string> };

/**
 * The lists (~120 000 domains, and the package's wildcard.json of domains whose every subdomain is
 * disposable too) are loaded on the first e-mail search, not at start-up.
 */
let disposable: Promise<DisposableLists> | undefined;
function disposableDomains(): Promise<DisposableLists> {
  disposable ??= Promise.all([
    import('disposable-email-domains', { with: { type: 'json' } }),
    import('disposable-email-domains/wildcard.json', { with: { type: 'json' } }),
  ]).then(([exact, wildcard]) => ({
    exact: new Set<string>(exact.default as string[]),
    wildcard: new Set<string>(wildcard.default as string[]),
  }));
  return disposable;
}

/** The domain, or a parent of it on the wildcard list (a@sub.mailinator.com is disposable). */
export function disposableMatch(lists: DisposableLists, domain: string): string | null {
  if (lists.exact.has(domain) || lists.wildcard.has(domain)) return domain;
  const labels = domain.split('.');
  for (let i = 1; i < labels.length - 1; i += 1) {
    const parent = labels.slice(i).join('.');
    if (lists.wildcard.has(parent)) return parent;
  }
  return null;
}

/** An e-mail address: its domain's MX, disposable domain, Gravatar profile, breaches, the local part on top sites. */
export async function emailSources(ctx: OsintContext, email: string): Promise<SourceSet> {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1).toLowerCase();
  const normalized = `${local}@${domain}`;
  const opts = { signal: ctx.signal, log: ctx.log };
  // Each request's own 10 s limit starts when it gets an outbound slot; the source ceilings are wider so
  // a queue behind other members' scans is not counted against Gravatar or HIBP (issue 26).
  const results = await Promise.all([
    runSource('MX Records', SOURCE_TIMEOUT_MS, () => mxSource(ctx, domain), opts),
    runSource('Disposable Domain', SOURCE_TIMEOUT_MS, () => disposableSource(domain), opts),
    runSource('Gravatar', SOURCE_TIMEOUT_MS * 3, (signal) => gravatarSource(ctx, normalized, signal), opts),
    runSource(
      'Have I Been Pwned',
      SOURCE_TIMEOUT_MS * 3,
      (signal) => hibpSource(ctx, normalized, signal),
      opts,
    ),
    runSource('Username (local part)', ctx.config.siteTimeoutMs * 6, () => localPartSource(ctx, local), opts),
  ]);
  return {
    sources: results.flat(),
    metadata: { localPart: local, domain, syntaxValid: true },
  };
}

async function mxSource(ctx: OsintContext, domain: string): Promise<OsintSource> {
  try {
    const records = await ctx.outbound.resolver.resolveMx(domain);
    records.sort((a, b) => a.priority - b.priority);
    return records.length > 0
      ? source('MX Records', 'Found', { records }, 'none')
      : nothing('MX Records', 'None', { records, note: 'The domain cannot receive mail' });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENODATA' || code === 'ENOTFOUND') {
      return nothing('MX Records', 'None', { records: [], note: 'The domain cannot receive mail' });
    }
    // SERVFAIL, timeouts, a resolver that refuses: runSource says the records could not be looked up.
    throw err;
  }
}

async function disposableSource(domain: string): Promise<OsintSource> {
  const match = disposableMatch(await disposableDomains(), domain);
  const data = { domain, disposable: !!match, matched: match, list: 'disposable-email-domains (MIT)' };
  return match
    ? source('Disposable Domain', 'Disposable', data, disposableRisk(true))
    : nothing('Disposable Domain', 'Not disposable', data);
}

type GravatarProfile = {
  hash?: string;
  display_name?: string;
  profile_url?: string;
  avatar_url?: string;
  location?: string;
  description?: string;
  job_title?: string;
  company?: string;
  verified_accounts?: { service_label?: string; url?: string }[];
};

/** Gravatar's public profile API (v3): the profile of SHA-256(lowercased address), or 404. */
async function gravatarSource(ctx: OsintContext, email: string, signal: AbortSignal): Promise<OsintSource> {
  const hash = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
  const res = await ctx.outbound.fetch(`${ctx.config.gravatarApiUrl}/profiles/${hash}`, {
    headers: { accept: 'application/json' },
    signal,
    timeoutMs: SOURCE_TIMEOUT_MS,
  });
  if (res.status === 404) return nothing('Gravatar', 'Not found', { hash });
  if (res.status === 429) return unchecked('Gravatar', 'Unknown', 'Rate limited by Gravatar');
  if (res.status !== 200) return unchecked('Gravatar', 'Unknown', `Gravatar answered HTTP ${res.status}`);
  const p = JSON.parse(res.body) as GravatarProfile;
  if (!p || typeof p !== 'object') return unchecked('Gravatar', 'Unknown', SOURCE_FAILURES.badAnswer);
  const data = {
    displayName: p.display_name ?? null,
    location: p.location || null,
    jobTitle: p.job_title || null,
    company: p.company || null,
    description: p.description || null,
    avatarUrl: p.avatar_url ?? null,
    accounts: (p.verified_accounts ?? []).map((a) => ({ service: a.service_label ?? '', url: a.url ?? '' })),
  };
  return source('Gravatar', 'Found', data, gravatarRisk(true), p.profile_url ?? null);
}

type HibpBreach = {
  Name: string;
  Title?: string;
  Domain?: string;
  BreachDate?: string;
  PwnCount?: number;
  DataClasses?: string[];
};

/** Have I Been Pwned v3 breachedaccount: 200 with the breaches, 404 when none; needs HIBP_API_KEY. */
async function hibpSource(ctx: OsintContext, email: string, signal: AbortSignal): Promise<OsintSource> {
  const name = 'Have I Been Pwned';
  if (!ctx.config.hibpApiKey) {
    return unchecked(name, 'Not configured', SOURCE_FAILURES.notConfigured, {
      note: 'An admin can set HIBP_API_KEY to check breaches',
    });
  }
  const url = `${ctx.config.hibpApiUrl}/breachedaccount/${encodeURIComponent(email)}?truncateResponse=false`;
  const res = await ctx.outbound.fetch(url, {
    headers: { 'hibp-api-key': ctx.config.hibpApiKey, accept: 'application/json' },
    signal,
    timeoutMs: SOURCE_TIMEOUT_MS,
  });
  const link = 'https://haveibeenpwned.com/';
  if (res.status === 404) return nothing(name, 'Clean', { breaches: [] }, link);
  if (res.status === 429) return unchecked(name, 'Unknown', 'Rate limited by HIBP', {}, link);
  if (res.status === 401) return unchecked(name, 'Unknown', 'HIBP refused the API key', {}, link);
  if (res.status !== 200) return unchecked(name, 'Unknown', `HIBP answered HTTP ${res.status}`, {}, link);
  const parsed = JSON.parse(res.body) as unknown;
  if (!Array.isArray(parsed)) return unchecked(name, 'Unknown', SOURCE_FAILURES.badAnswer, {}, link);
  const breaches = (parsed as HibpBreach[]).map((b) => ({
    name: b.Title ?? b.Name,
    domain: b.Domain ?? null,
    date: b.BreachDate ?? null,
    accounts: b.PwnCount ?? null,
    dataClasses: b.DataClasses ?? [],
  }));
  return source(name, `Breached (${breaches.length})`, { breaches }, breachRisk(breaches), link);
}

async function localPartSource(ctx: OsintContext, local: string): Promise<OsintSource> {
  const account = local.replace(/\+.*$/, '');
  const checks = await scanSites(ctx.outbound, topSites(ctx.sites), account, scanOptions(ctx));
  return platformSource(`Username "${account}" on top sites`, checks, account, 'candidate');
}

import { createHash } from 'node:crypto';
import type { OsintSource } from '@guildhall/common';
import { type OsintContext, SOURCE_TIMEOUT_MS } from '../context.ts';
import { breachRisk, disposableRisk, gravatarRisk } from '../risk.ts';
import { platformSource, scanSites } from '../scan.ts';
import { topSites } from '../sites.ts';
import { runSource, source } from '../source-result.ts';
import type { SourceSet } from './username.ts';

/** The list (~120 000 domains) is loaded on the first e-mail search, not at start-up. */
let disposable: Promise<Set<string>> | undefined;
function disposableDomains(): Promise<Set<string>> {
  disposable ??= import('disposable-email-domains', { with: { type: 'json' } }).then(
    (m) => new Set<string>(m.default as string[]),
  );
  return disposable;
}

/** An e-mail address: its domain's MX, disposable domain, Gravatar profile, breaches, the local part on top sites. */
export async function emailSources(ctx: OsintContext, email: string): Promise<SourceSet> {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1).toLowerCase();
  const normalized = `${local}@${domain}`;
  const results = await Promise.all([
    runSource('MX Records', SOURCE_TIMEOUT_MS, () => mxSource(ctx, domain)),
    runSource('Disposable Domain', SOURCE_TIMEOUT_MS, () => disposableSource(domain)),
    runSource('Gravatar', SOURCE_TIMEOUT_MS, (signal) => gravatarSource(ctx, normalized, signal)),
    runSource('Have I Been Pwned', SOURCE_TIMEOUT_MS, (signal) => hibpSource(ctx, normalized, signal)),
    runSource('Username (local part)', SOURCE_TIMEOUT_MS * 2, () => localPartSource(ctx, local)),
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
    return source('MX Records', records.length > 0 ? 'Found' : 'None', { records }, 'none');
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENODATA' || code === 'ENOTFOUND') {
      return source('MX Records', 'None', { records: [], note: 'The domain cannot receive mail' }, 'none');
    }
    throw err;
  }
}

async function disposableSource(domain: string): Promise<OsintSource> {
  const isDisposable = (await disposableDomains()).has(domain);
  return source(
    'Disposable Domain',
    isDisposable ? 'Disposable' : 'Not disposable',
    { domain, disposable: isDisposable, list: 'disposable-email-domains (MIT)' },
    disposableRisk(isDisposable),
  );
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
  });
  if (res.status === 404) return source('Gravatar', 'Not found', { hash }, 'none');
  if (res.status !== 200) return source('Gravatar', 'Unknown', { error: `HTTP ${res.status}` }, 'none');
  const p = JSON.parse(res.body) as GravatarProfile;
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
    return source(name, 'Not configured', { note: 'Set HIBP_API_KEY to check breaches' }, 'none');
  }
  const url = `${ctx.config.hibpApiUrl}/breachedaccount/${encodeURIComponent(email)}?truncateResponse=false`;
  const res = await ctx.outbound.fetch(url, {
    headers: { 'hibp-api-key': ctx.config.hibpApiKey, accept: 'application/json' },
    signal,
  });
  const link = 'https://haveibeenpwned.com/';
  if (res.status === 404) return source(name, 'Clean', { breaches: [] }, 'none', link);
  if (res.status === 429) return source(name, 'Unknown', { error: 'Rate limited by HIBP' }, 'none', link);
  if (res.status === 401) return source(name, 'Unknown', { error: 'HIBP refused the API key' }, 'none', link);
  if (res.status !== 200) return source(name, 'Unknown', { error: `HTTP ${res.status}` }, 'none', link);
  const breaches = (JSON.parse(res.body) as HibpBreach[]).map((b) => ({
    name: b.Title ?? b.Name,
    domain: b.Domain ?? null,
    date: b.BreachDate ?? null,
    accounts: b.PwnCount ?? null,
    dataClasses: b.DataClasses ?? [],
  }));
  return source(name, `Breached (${breaches.length})`, { breaches }, breachRisk(breaches.length), link);
}

async function localPartSource(ctx: OsintContext, local: string): Promise<OsintSource> {
  const account = local.replace(/\+.*$/, '');
  const checks = await scanSites(ctx.outbound, topSites(ctx.sites), account, ctx.config.siteTimeoutMs);
  return platformSource(`Username "${account}" on top sites`, checks);
}

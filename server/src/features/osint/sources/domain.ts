import type { OsintSource } from '@guildhall/common';
import { type OsintContext, SOURCE_TIMEOUT_MS } from '../context.ts';
import { entityName, eventDate } from '../rdap.ts';
import {
  mailAuthRisk,
  REQUIRED_SECURITY_HEADERS,
  registrationRisk,
  siteRisk,
  subdomainRisk,
} from '../risk.ts';
import { runSource, source } from '../source-result.ts';
import type { SourceSet } from './username.ts';

const SECURITY_HEADERS = [
  'strict-transport-security',
  'content-security-policy',
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
] as const;
const SUBDOMAINS_KEPT = 200;

/** A domain: DNS records with SPF and DMARC, RDAP registration, CT subdomains, the site's certificate and headers. */
export async function domainSources(ctx: OsintContext, domain: string): Promise<SourceSet> {
  const results = await Promise.all([
    runSource('DNS Records', SOURCE_TIMEOUT_MS, () => dnsSource(ctx, domain)),
    runSource('RDAP Registration', SOURCE_TIMEOUT_MS, (signal) => rdapSource(ctx, domain, signal)),
    runSource('Certificate Transparency', SOURCE_TIMEOUT_MS * 2, (signal) => ctSource(ctx, domain, signal)),
    runSource('TLS Certificate & Headers', SOURCE_TIMEOUT_MS, () => siteSource(ctx, domain)),
  ]);
  const sources = results.flat();
  const dns = sources.find((s) => s.name === 'DNS Records')?.data as { a?: string[] } | undefined;
  return { sources, metadata: { domain, addresses: dns?.a?.length ?? 0 } };
}

async function settle<T>(p: Promise<T>, empty: T): Promise<T> {
  try {
    return await p;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENODATA' || code === 'ENOTFOUND') return empty;
    throw err;
  }
}

async function dnsSource(ctx: OsintContext, domain: string): Promise<OsintSource> {
  const r = ctx.outbound.resolver;
  const [a, aaaa, mx, ns, txt, dmarcTxt] = await Promise.all([
    settle(r.resolve4(domain), []),
    settle(r.resolve6(domain), []),
    settle(r.resolveMx(domain), []),
    settle(r.resolveNs(domain), []),
    settle(r.resolveTxt(domain), []),
    settle(r.resolveTxt(`_dmarc.${domain}`), []),
  ]);
  const texts = txt.map((chunks) => chunks.join(''));
  const spf = texts.find((t) => /^v=spf1\b/i.test(t)) ?? null;
  const dmarc = dmarcTxt.map((c) => c.join('')).find((t) => /^v=DMARC1\b/i.test(t)) ?? null;
  const exists = a.length + aaaa.length + mx.length + ns.length + texts.length > 0;
  const data = { a, aaaa, mx: mx.sort((x, y) => x.priority - y.priority), ns, txt: texts, spf, dmarc };
  return source(
    'DNS Records',
    exists ? 'Found' : 'No records',
    data,
    exists ? mailAuthRisk(spf, dmarc) : 'none',
  );
}

async function rdapSource(ctx: OsintContext, domain: string, signal: AbortSignal): Promise<OsintSource> {
  const { data, url } = await ctx.rdap.domain(domain, signal);
  if (!url) return source('RDAP Registration', 'Unknown', { error: 'No RDAP service for this TLD' });
  if (!data) return source('RDAP Registration', 'Not registered', {}, 'none', url);
  const expires = eventDate(data, 'expiration');
  const info = {
    registrar: entityName(data, 'registrar'),
    created: eventDate(data, 'registration'),
    updated: eventDate(data, 'last changed'),
    expires,
    status: data.status ?? [],
    nameservers: (data.nameservers ?? []).map((n) => n.ldhName.toLowerCase()),
  };
  return source('RDAP Registration', 'Registered', info, registrationRisk(expires), url);
}

type CtEntry = { name_value?: string; common_name?: string };

/** crt.sh's JSON search: every certificate logged for the domain and its subdomains. */
async function ctSource(ctx: OsintContext, domain: string, signal: AbortSignal): Promise<OsintSource> {
  const url = `${ctx.config.ctSearchUrl}/?q=${encodeURIComponent(`%.${domain}`)}&output=json`;
  const res = await ctx.outbound.fetch(url, { headers: { accept: 'application/json' }, signal });
  if (res.status !== 200)
    return source('Certificate Transparency', 'Unknown', { error: `HTTP ${res.status}` });
  const names = new Set<string>();
  // A 1 MiB cap may cut a huge answer mid-array: keep the entries that parsed.
  for (const entry of parseEntries(res.body)) {
    for (const raw of `${entry.name_value ?? ''}\n${entry.common_name ?? ''}`.split('\n')) {
      const name = raw.trim().toLowerCase().replace(/^\*\./, '');
      if (name && (name === domain || name.endsWith(`.${domain}`)) && name !== domain) names.add(name);
    }
  }
  const subdomains = [...names].sort();
  const link = `https://crt.sh/?q=${encodeURIComponent(`%.${domain}`)}`;
  return source(
    'Certificate Transparency',
    subdomains.length > 0 ? `${subdomains.length} subdomains` : 'None found',
    { count: subdomains.length, subdomains: subdomains.slice(0, SUBDOMAINS_KEPT), truncated: res.truncated },
    subdomainRisk(subdomains.length),
    link,
  );
}

function parseEntries(body: string): CtEntry[] {
  try {
    return JSON.parse(body) as CtEntry[];
  } catch {
    const out: CtEntry[] = [];
    for (const m of body.matchAll(/\{[^{}]*\}/g)) {
      try {
        out.push(JSON.parse(m[0]) as CtEntry);
      } catch {
        // A cut entry at the end.
      }
    }
    return out;
  }
}

async function siteSource(ctx: OsintContext, domain: string): Promise<OsintSource> {
  const url = ctx.config.siteUrl.replace('{domain}', domain);
  const site = await ctx.outbound.inspectSite(url, { timeoutMs: SOURCE_TIMEOUT_MS });
  const present = SECURITY_HEADERS.filter((h) => site.headers[h] !== undefined);
  const missing = REQUIRED_SECURITY_HEADERS.filter((h) => site.headers[h] === undefined);
  const cert = site.certificate;
  const daysLeft = cert ? Math.floor((Date.parse(cert.validTo) - Date.now()) / 86_400_000) : null;
  const data = {
    status: site.status,
    certificate: cert ? { ...cert, daysLeft } : null,
    securityHeaders: Object.fromEntries(SECURITY_HEADERS.map((h) => [h, site.headers[h] ?? null])),
    present,
    missing: SECURITY_HEADERS.filter((h) => !present.includes(h)),
    server: site.headers.server ?? null,
  };
  const status = cert
    ? cert.authorized
      ? 'Valid certificate'
      : 'Untrusted certificate'
    : `HTTP ${site.status}`;
  return source('TLS Certificate & Headers', status, data, siteRisk(cert, [...missing]), url);
}

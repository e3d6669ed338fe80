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
import { isDnsFailure, nothing, runSource, SOURCE_FAILURES, source, unchecked } from '../source-result.ts';
import type { SourceSet } from './username.ts';

const SECURITY_HEADERS = [
  'strict-transport-security',
  'content-security-policy',
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
] as const;

/** A domain: DNS records with SPF and DMARC, RDAP registration, CT subdomains, the site's certificate and headers. */
export async function domainSources(ctx: OsintContext, domain: string): Promise<SourceSet> {
  const opts = { signal: ctx.signal, log: ctx.log };
  const results = await Promise.all([
    runSource('DNS Records', SOURCE_TIMEOUT_MS, () => dnsSource(ctx, domain), opts),
    runSource('RDAP Registration', SOURCE_TIMEOUT_MS * 2, (signal) => rdapSource(ctx, domain, signal), opts),
    runSource(
      'Certificate Transparency',
      SOURCE_TIMEOUT_MS * 2,
      (signal) => ctSource(ctx, domain, signal),
      opts,
    ),
    runSource(
      'TLS Certificate & Headers',
      SOURCE_TIMEOUT_MS * 2,
      (signal) => siteSource(ctx, domain, signal),
      opts,
    ),
  ]);
  const sources = results.flat();
  const dns = sources.find((s) => s.name === 'DNS Records')?.data as { a?: string[] } | undefined;
  return { sources, metadata: { domain, addresses: dns?.a?.length ?? 0 } };
}

/** A DNS answer: the records, none (NXDOMAIN / NODATA: the resolver answered "nothing"), or a failure. */
type Answer<T> = { ok: true; records: T[] } | { ok: false; err: unknown };

async function ask<T>(p: Promise<T[]>): Promise<Answer<T>> {
  try {
    return { ok: true, records: await p };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENODATA' || code === 'ENOTFOUND') return { ok: true, records: [] };
    return { ok: false, err };
  }
}

const recordsOf = <T>(a: Answer<T>): T[] => (a.ok ? a.records : []);

async function dnsSource(ctx: OsintContext, domain: string): Promise<OsintSource> {
  const r = ctx.outbound.resolver;
  const answers = await Promise.all([
    ask(r.resolve4(domain)),
    ask(r.resolve6(domain)),
    ask(r.resolveMx(domain)),
    ask(r.resolveNs(domain)),
    ask(r.resolveTxt(domain)),
    ask(r.resolveTxt(`_dmarc.${domain}`)),
  ] as const);
  const failures = answers.filter((x) => !x.ok);
  // The resolver did not answer (SERVFAIL, timeout, refused): "No records" would be a claim nobody made.
  if (failures.length > 0) {
    const err = (failures[0] as { err: unknown }).err;
    ctx.log?.({ source: 'DNS Records', err });
    const reason = isDnsFailure(err) ? SOURCE_FAILURES.dnsDown : SOURCE_FAILURES.unreachable;
    return unchecked('DNS Records', 'Could not look up', reason);
  }
  const [a, aaaa, mx, ns, txt, dmarcTxt] = [
    recordsOf(answers[0]),
    recordsOf(answers[1]),
    recordsOf(answers[2]),
    recordsOf(answers[3]),
    recordsOf(answers[4]),
    recordsOf(answers[5]),
  ];
  const texts = txt.map((chunks) => chunks.join(''));
  const spf = texts.find((t) => /^v=spf1\b/i.test(t)) ?? null;
  const dmarc = dmarcTxt.map((c) => c.join('')).find((t) => /^v=DMARC1\b/i.test(t)) ?? null;
  const exists = a.length + aaaa.length + mx.length + ns.length + texts.length > 0;
  const data = { a, aaaa, mx: mx.sort((x, y) => x.priority - y.priority), ns, txt: texts, spf, dmarc };
  return exists
    ? source('DNS Records', 'Found', data, mailAuthRisk(spf, dmarc))
    : nothing('DNS Records', 'No records', data);
}

async function rdapSource(ctx: OsintContext, domain: string, signal: AbortSignal): Promise<OsintSource> {
  const { data, url } = await ctx.rdap.domain(domain, signal);
  if (!url) return unchecked('RDAP Registration', 'Unknown', 'No RDAP service for this top-level domain');
  if (!data) return nothing('RDAP Registration', 'Not registered', {}, url);
  const expires = eventDate(data, 'expiration');
  const info = {
    registrar: entityName(data, 'registrar'),
    created: eventDate(data, 'registration'),
    updated: eventDate(data, 'last changed'),
    expires,
    status: data.status ?? [],
    nameservers: (data.nameservers ?? []).map((n) => n.ldhName.toLowerCase()),
  };
  return source('RDAP Registration', 'Registered', info, registrationRisk(expires, ctx.clock.now()), url);
}

type CtEntry = { name_value?: string; common_name?: string };

/** crt.sh's JSON search: every certificate logged for the domain and its subdomains. */
async function ctSource(ctx: OsintContext, domain: string, signal: AbortSignal): Promise<OsintSource> {
  const url = `${ctx.config.ctSearchUrl}/?q=${encodeURIComponent(`%.${domain}`)}&output=json`;
  const res = await ctx.outbound.fetch(url, {
    headers: { accept: 'application/json' },
    signal,
    timeoutMs: SOURCE_TIMEOUT_MS * 2,
  });
  if (res.status !== 200)
    return unchecked('Certificate Transparency', 'Unknown', `crt.sh answered HTTP ${res.status}`);
  const names = new Set<string>();
  // A 1 MiB cap may cut a huge answer mid-array: keep the entries that parsed.
  const entries = parseEntries(res.body);
  if (entries === null) return unchecked('Certificate Transparency', 'Unknown', SOURCE_FAILURES.badAnswer);
  for (const entry of entries) {
    for (const raw of `${entry.name_value ?? ''}\n${entry.common_name ?? ''}`.split('\n')) {
      const name = raw.trim().toLowerCase().replace(/^\*\./, '');
      if (name && (name === domain || name.endsWith(`.${domain}`)) && name !== domain) names.add(name);
    }
  }
  const subdomains = [...names].sort();
  const link = `https://crt.sh/?q=${encodeURIComponent(`%.${domain}`)}`;
  const data = {
    count: subdomains.length,
    subdomains: subdomains.slice(0, ctx.config.subdomainsKept),
    truncated: res.truncated,
  };
  return subdomains.length > 0
    ? source(
        'Certificate Transparency',
        `${subdomains.length} subdomains`,
        data,
        subdomainRisk(subdomains.length),
        link,
      )
    : nothing('Certificate Transparency', 'None found', data, link);
}

/** crt.sh's array, or the entries that parsed from a cut one; null for an answer that is not such JSON. */
function parseEntries(body: string): CtEntry[] | null {
  try {
    const parsed = JSON.parse(body) as unknown;
    return Array.isArray(parsed) ? (parsed as CtEntry[]) : null;
  } catch {
    if (!body.trimStart().startsWith('[')) return null;
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

async function siteSource(ctx: OsintContext, domain: string, signal: AbortSignal): Promise<OsintSource> {
  const url = ctx.config.siteUrl.replace('{domain}', domain);
  const site = await ctx.outbound.inspectSite(url, { timeoutMs: SOURCE_TIMEOUT_MS, signal });
  const present = SECURITY_HEADERS.filter((h) => site.headers[h] !== undefined);
  const missing = REQUIRED_SECURITY_HEADERS.filter((h) => site.headers[h] === undefined);
  const cert = site.certificate;
  const daysLeft = cert ? Math.floor((Date.parse(cert.validTo) - ctx.clock.now()) / 86_400_000) : null;
  const data = {
    status: site.status,
    finalUrl: site.url,
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
  return source(
    'TLS Certificate & Headers',
    status,
    data,
    siteRisk(cert, [...missing], ctx.clock.now()),
    site.url,
  );
}

import { AsyncLocalStorage } from 'node:async_hooks';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import { Agent, request } from 'undici';
import { canonicalAddress, isAllowListed, isPublicAddress } from './address-policy.ts';
import { type BodyScan, readBody } from './body-reader.ts';
import { findRefusal, OutboundRefusedError, OutboundTimeoutError } from './errors.ts';
import { createLimiter, type Limiter } from './limiter.ts';
import { type DnsResolver, resolveAddresses } from './resolver.ts';

export const MAX_REDIRECTS = 3;
export const MAX_BODY_BYTES = 1024 * 1024;
/** The portal's honest User-Agent, for operators who prefer to announce themselves (OUTBOUND_USER_AGENT). */
export const HONEST_USER_AGENT = 'Mozilla/5.0 (compatible; GuildhallOSINT/1.0; authorized research)';
/**
 * The default: a current desktop browser's, because many profile sites answer anything else with a block
 * page, which would make the verdict unknown (issue 28). The honest one is configurable.
 */
export const BROWSER_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** Requests in flight to one host at once, over every search (politeness: sites ban hammering clients). */
export const PER_HOST_CONCURRENCY = 4;

export type OutboundOptions = {
  resolver: DnsResolver;
  /** Most requests in flight at once, over every caller. */
  concurrency: number;
  /** Default time limit of one request, redirects included. */
  timeoutMs: number;
  /** Loopback addresses tests may reach; production passes none (config OUTBOUND_TEST_ALLOW). */
  allow?: readonly string[];
  /** Most requests in flight for one owner (member); default `concurrency`. */
  perOwner?: number;
  /** Most requests in flight to one host; default PER_HOST_CONCURRENCY. */
  perHost?: number;
  /** The User-Agent sent unless a request sets its own; default BROWSER_USER_AGENT. */
  userAgent?: string;
};

export type FetchOptions = {
  method?: 'GET' | 'POST' | 'HEAD';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Follow redirects (each re-checked), at most MAX_REDIRECTS; otherwise the 3xx is returned. */
  followRedirects?: boolean;
  /** Who the request is for (a member's id): the fair share of slots is counted per owner. */
  owner?: string;
  /** Search the whole body for markers instead of keeping it (profile pages, see body-reader.ts). */
  scan?: BodyScan;
};

export type FetchResult = {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** True when the body was longer than MAX_BODY_BYTES and was cut there. */
  truncated: boolean;
  /** The URL that answered, after redirects. */
  url: string;
  redirects: number;
  /** The answer's Set-Cookie headers, one entry each (a joined header cannot be split back: Expires has a comma). */
  setCookies: string[];
  /** With `scan`: whether each marker (and each caseless string) occurs in the body. */
  markers?: boolean[];
  caseless?: boolean[];
};

export type CertificateInfo = {
  subject: string;
  issuer: string;
  validFrom: string;
  validTo: string;
  subjectAltNames: string[];
  fingerprint256: string;
  /** Whether the chain verified against the trusted roots for this name. */
  authorized: boolean;
  authorizationError: string | null;
};

export type SiteInspection = {
  status: number;
  headers: Record<string, string>;
  certificate: CertificateInfo | null;
  /** The page finally served, after redirects. */
  url: string;
  redirects: number;
};

export type Outbound = {
  /** Fetches a URL on a user's behalf: checked addresses only, redirects re-checked, body and time capped. */
  fetch(url: string, options?: FetchOptions): Promise<FetchResult>;
  /**
   * A site's certificate (of the first https answer, valid or not) and the status and headers of the
   * page it finally serves (redirects followed, each hop checked).
   */
  inspectSite(
    url: string,
    options?: { timeoutMs?: number; owner?: string; signal?: AbortSignal },
  ): Promise<SiteInspection>;
  readonly resolver: DnsResolver;
  readonly limiter: Limiter;
  close(): Promise<void>;
};

/**
 * Who the requests made inside `outboundScope.run(...)` are for, and when to stop them: every request of
 * one search (its sources, their libraries' requests) is counted against that member's fair share and is
 * cancelled when the member goes away, without each caller passing them along.
 */
export const outboundScope = new AsyncLocalStorage<{ owner?: string; signal?: AbortSignal }>();

function scoped<T extends { owner?: string; signal?: AbortSignal }>(options: T): T {
  const scope = outboundScope.getStore();
  if (!scope) return options;
  const signals = [options.signal, scope.signal].filter((s): s is AbortSignal => !!s);
  return {
    ...options,
    owner: options.owner ?? scope.owner,
    signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
  };
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * The one way the server reaches the outside on a user's behalf (docs/osint.md, "Safety"). Names are
 * resolved once per connection by a lookup that refuses any non-public answer, and the socket connects
 * to exactly the address that lookup returned: there is no second resolution a rebinding name could
 * change. Literal addresses are checked before any connection.
 */
export function createOutbound(opts: OutboundOptions): Outbound {
  const allow = opts.allow ?? [];
  const limiter = createLimiter(opts.concurrency, opts.perOwner ?? opts.concurrency);
  const userAgent = opts.userAgent ?? BROWSER_USER_AGENT;
  const perHost = opts.perHost ?? PER_HOST_CONCURRENCY;
  const hosts = new Map<string, Limiter>();
  /** The host's politeness slot first (so waiting for a busy host holds no global slot), then a global one. */
  const withSlots = async <T>(url: URL, options: FetchOptions, task: () => Promise<T>): Promise<T> => {
    const key = url.hostname;
    let host = hosts.get(key);
    if (!host) {
      // Shared fairly too: one member's hanging requests to a host leave room for another's.
      host = createLimiter(perHost, Math.max(1, Math.ceil(perHost / 2)));
      hosts.set(key, host);
    }
    const hostLimiter = host;
    try {
      return await hostLimiter.run(() => limiter.run(task, options), options);
    } finally {
      if (hostLimiter.active === 0 && hostLimiter.waiting === 0) hosts.delete(key);
    }
  };

  const permitted = (address: string) => isPublicAddress(address) || isAllowListed(address, allow);

  const checkedLookup = (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    lookupPermitted(hostname).then(
      (addresses) => {
        const entries = addresses.map((address) => ({ address, family: net.isIP(address) }));
        if (options.all) callback(null, entries);
        else callback(null, entries[0]!.address, entries[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };

  /** Every address the name has must be permitted; one private answer refuses the whole name. */
  const lookupPermitted = async (hostname: string): Promise<string[]> => {
    const literal = canonicalAddress(hostname);
    if (literal) {
      assertPermitted(literal, hostname);
      return [literal];
    }
    const addresses = await resolveAddresses(opts.resolver, hostname);
    if (addresses.length === 0) {
      throw Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' });
    }
    for (const address of addresses) assertPermitted(address, hostname);
    return addresses;
  };

  const assertPermitted = (address: string, hostname: string) => {
    if (!permitted(address)) {
      throw new OutboundRefusedError(`Refused: ${hostname} is not a public address (${address})`);
    }
  };

  const agent = new Agent({
    connect: { lookup: checkedLookup as never, timeout: opts.timeoutMs },
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
    keepAliveTimeout: 4000,
    // No per-origin connection limit: the global limiter bounds what is in flight.
  });

  const fetchOnce = async (url: URL, options: FetchOptions, clock: Clock) => {
    assertFetchableUrl(url);
    // net.connect skips the lookup for a literal address: judge it here instead.
    const literal = canonicalAddress(url.hostname);
    if (literal) assertPermitted(literal, url.hostname);
    return withSlots(url, options, async () => {
      // The time limit runs from the first slot obtained: waiting for the global cap is not the site's fault.
      const signal = clock.start();
      const res = await request(url, {
        dispatcher: agent,
        method: options.method ?? 'GET',
        headers: mergeHeaders(
          { 'user-agent': userAgent, accept: '*/*', 'accept-encoding': 'gzip, deflate, br' },
          options.headers,
        ),
        body: options.body,
        signal,
      });
      const headers = flattenHeaders(res.headers);
      const raw = res.headers['set-cookie'];
      const setCookies = Array.isArray(raw) ? raw : raw ? [raw] : [];
      const read = await readBody(res.body, headers, signal, {
        maxBytes: MAX_BODY_BYTES,
        scan: options.scan,
      });
      return { status: res.statusCode, headers, setCookies, ...read };
    });
  };

  return {
    resolver: opts.resolver,
    limiter,
    async fetch(rawUrl, given = {}) {
      const options = scoped(given);
      const clock = lazyDeadline(options.timeoutMs ?? opts.timeoutMs, options.signal);
      let url = parseUrl(rawUrl);
      try {
        for (let redirects = 0; ; redirects += 1) {
          const res = await fetchOnce(
            url,
            redirects === 0 ? options : { ...options, method: 'GET', body: undefined },
            clock,
          );
          const location = res.headers.location;
          const isRedirect = res.status >= 300 && res.status < 400 && location;
          if (!isRedirect || options.followRedirects === false)
            return { ...res, url: url.toString(), redirects };
          if (redirects >= MAX_REDIRECTS)
            throw new OutboundRefusedError(`More than ${MAX_REDIRECTS} redirects`);
          url = parseUrl(location, url);
        }
      } catch (err) {
        throw normaliseError(err, clock.signal());
      }
    },
    async inspectSite(rawUrl, given = {}) {
      const options = scoped(given);
      let url = parseUrl(rawUrl);
      const clock = lazyDeadline(options.timeoutMs ?? opts.timeoutMs, options.signal);
      let certificate: CertificateInfo | null = null;
      try {
        // Security headers are judged on the page a visitor ends on, not on the apex's redirect (issue 28).
        for (let redirects = 0; ; redirects += 1) {
          assertFetchableUrl(url);
          const literal = canonicalAddress(url.hostname);
          if (literal) assertPermitted(literal, url.hostname);
          const hop = url;
          const res = await withSlots(hop, options, () =>
            inspect(hop, checkedLookup, clock.start(), userAgent),
          );
          if (redirects === 0 || (!certificate && res.certificate)) certificate = res.certificate;
          const location = res.headers.location;
          if (!(res.status >= 300 && res.status < 400 && location)) {
            return { ...res, certificate, url: url.toString(), redirects };
          }
          if (redirects >= MAX_REDIRECTS)
            throw new OutboundRefusedError(`More than ${MAX_REDIRECTS} redirects`);
          url = parseUrl(location, url);
        }
      } catch (err) {
        throw normaliseError(err, clock.signal());
      }
    },
    async close() {
      await agent.close();
    },
  };
}

function parseUrl(raw: string, base?: URL): URL {
  try {
    return new URL(raw, base);
  } catch {
    throw new OutboundRefusedError(`Not a URL: ${raw.slice(0, 100)}`);
  }
}

function assertFetchableUrl(url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundRefusedError(`Refused: only http and https are fetched (${url.protocol})`);
  }
  if (url.username || url.password) throw new OutboundRefusedError('Refused: URLs with credentials');
}

type Clock = { start(): AbortSignal; signal(): AbortSignal | undefined };

/** A time limit that starts on the first start() and is shared by later calls (redirect hops). */
function lazyDeadline(timeoutMs: number, outer?: AbortSignal): Clock {
  let signal: AbortSignal | undefined;
  return {
    start() {
      if (!signal) {
        const timeout = AbortSignal.timeout(timeoutMs);
        signal = outer ? AbortSignal.any([outer, timeout]) : timeout;
      }
      return signal;
    },
    signal: () => signal ?? outer,
  };
}

function normaliseError(err: unknown, signal: AbortSignal | undefined): Error {
  const refusal = findRefusal(err);
  if (refusal) return refusal;
  if (signal?.aborted) return new OutboundTimeoutError();
  const code = (err as { code?: string }).code;
  if (
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return new OutboundTimeoutError();
  }
  return err instanceof Error ? err : new Error(String(err));
}

/** Defaults overridden by a caller's headers, names compared without regard to case (one value per name). */
export function mergeHeaders(
  defaults: Record<string, string>,
  overrides: Record<string, string> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(defaults)) out[k.toLowerCase()] = v;
  for (const [k, v] of Object.entries(overrides ?? {})) out[k.toLowerCase()] = v;
  return out;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** One GET whose certificate is read even when it does not verify (reporting it is the point). */
function inspect(
  url: URL,
  lookup: unknown,
  signal: AbortSignal,
  userAgent: string,
): Promise<Omit<SiteInspection, 'url' | 'redirects'>> {
  return new Promise((resolve, reject) => {
    const isHttps = url.protocol === 'https:';
    const req = (isHttps ? https : http).request(url, {
      method: 'GET',
      headers: { 'user-agent': userAgent, accept: 'text/html,*/*' },
      lookup: lookup as never,
      rejectUnauthorized: false,
      servername: net.isIP(url.hostname) ? undefined : url.hostname,
      signal,
      agent: false,
    });
    req.on('response', (res) => {
      const socket = res.socket as TLSSocket;
      const certificate = isHttps ? describeCertificate(socket) : null;
      res.destroy();
      resolve({ status: res.statusCode ?? 0, headers: flattenHeaders(res.headers), certificate });
    });
    req.on('error', reject);
    req.end();
  });
}

function describeCertificate(socket: TLSSocket): CertificateInfo | null {
  const cert: PeerCertificate = socket.getPeerCertificate();
  if (!cert || Object.keys(cert).length === 0) return null;
  const name = (x: Record<string, string | string[]> | undefined) =>
    x
      ? Object.entries(x)
          .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : v}`)
          .join(', ')
      : '';
  return {
    subject: name(cert.subject as never),
    issuer: name(cert.issuer as never),
    validFrom: new Date(cert.valid_from).toISOString(),
    validTo: new Date(cert.valid_to).toISOString(),
    subjectAltNames: (cert.subjectaltname ?? '')
      .split(',')
      .map((s) => s.trim().replace(/^DNS:/, ''))
      .filter(Boolean),
    fingerprint256: cert.fingerprint256,
    authorized: socket.authorized,
    authorizationError: socket.authorizationError ? String(socket.authorizationError) : null,
  };
}

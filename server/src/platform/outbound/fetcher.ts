import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import { Agent, request } from 'undici';
import { canonicalAddress, isAllowListed, isPublicAddress } from './address-policy.ts';
import { findRefusal, OutboundRefusedError, OutboundTimeoutError } from './errors.ts';
import { createLimiter, type Limiter } from './limiter.ts';
import { type DnsResolver, resolveAddresses } from './resolver.ts';

export const MAX_REDIRECTS = 3;
export const MAX_BODY_BYTES = 1024 * 1024;
const USER_AGENT = 'Mozilla/5.0 (compatible; GuildhallOSINT/1.0; authorized research)';

export type OutboundOptions = {
  resolver: DnsResolver;
  /** Most requests in flight at once, over every caller. */
  concurrency: number;
  /** Default time limit of one request, redirects included. */
  timeoutMs: number;
  /** Loopback addresses tests may reach; production passes none (config OUTBOUND_TEST_ALLOW). */
  allow?: readonly string[];
};

export type FetchOptions = {
  method?: 'GET' | 'POST' | 'HEAD';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Follow redirects (each re-checked), at most MAX_REDIRECTS; otherwise the 3xx is returned. */
  followRedirects?: boolean;
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
};

export type Outbound = {
  /** Fetches a URL on a user's behalf: checked addresses only, redirects re-checked, body and time capped. */
  fetch(url: string, options?: FetchOptions): Promise<FetchResult>;
  /** One request to a site, reporting its status, headers and (https) certificate, valid or not. */
  inspectSite(url: string, options?: { timeoutMs?: number }): Promise<SiteInspection>;
  readonly resolver: DnsResolver;
  readonly limiter: Limiter;
  close(): Promise<void>;
};

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
  const limiter = createLimiter(opts.concurrency);

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
    return limiter.run(async () => {
      // The time limit runs from the first slot obtained: waiting for the global cap is not the site's fault.
      const signal = clock.start();
      const res = await request(url, {
        dispatcher: agent,
        method: options.method ?? 'GET',
        headers: { 'user-agent': USER_AGENT, accept: '*/*', ...options.headers },
        body: options.body,
        signal,
      });
      const { body, truncated } = await readCapped(res.body, signal);
      return { status: res.statusCode, headers: flattenHeaders(res.headers), body, truncated };
    });
  };

  return {
    resolver: opts.resolver,
    limiter,
    async fetch(rawUrl, options = {}) {
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
    async inspectSite(rawUrl, options = {}) {
      const url = parseUrl(rawUrl);
      assertFetchableUrl(url);
      const literal = canonicalAddress(url.hostname);
      if (literal) assertPermitted(literal, url.hostname);
      const clock = lazyDeadline(options.timeoutMs ?? opts.timeoutMs);
      try {
        return await limiter.run(() => inspect(url, checkedLookup, clock.start()));
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

async function readCapped(
  body: AsyncIterable<Buffer> & { destroy?: (err?: Error) => void },
  signal: AbortSignal,
): Promise<{ body: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (signal.aborted) throw new OutboundTimeoutError();
    const room = MAX_BODY_BYTES - size;
    if (chunk.length >= room) {
      chunks.push(chunk.subarray(0, room));
      body.destroy?.();
      return { body: Buffer.concat(chunks).toString('utf8'), truncated: chunk.length > room };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks).toString('utf8'), truncated: false };
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** One GET whose certificate is read even when it does not verify (reporting it is the point). */
function inspect(url: URL, lookup: unknown, signal: AbortSignal): Promise<SiteInspection> {
  return new Promise((resolve, reject) => {
    const isHttps = url.protocol === 'https:';
    const req = (isHttps ? https : http).request(url, {
      method: 'GET',
      headers: { 'user-agent': USER_AGENT, accept: 'text/html,*/*' },
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

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import dns2 from 'dns2';
import { TOP_SITE_NAMES } from '../features/osint/index.ts';

/**
 * Loopback fakes of every public source the OSINT lookup queries, speaking the real formats: a DNS server
 * (UDP), IANA's RDAP bootstrap files and an RDAP service, crt.sh's JSON search, Gravatar's v3 profile API,
 * Have I Been Pwned's v3 API, an https web site, and N user-profile sites described by a WhatsMyName-format
 * site list. The app reaches them only through configuration (`env`), as it reaches the real ones.
 * Used by the server tests, the browser test and bench/osint.
 */

export const FAKE = {
  /** Found on every site whose index is a multiple of 3 (so > 5 platforms, for "+N more"). */
  knownUser: 'alice',
  hibpApiKey: 'fake-hibp-key',
  breachedEmail: 'pwned@example.test',
  gravatarEmail: 'jane@example.test',
  domain: 'example.test',
  noMailAuthDomain: 'nospf.test',
  rebindName: 'rebind.test',
  publicIp: '8.8.8.8',
} as const;

export type SiteBehaviour = 'found' | 'missing' | 'blocked' | 'hang';

export type FakeOsintOptions = {
  /** How many profile sites the site list has (default 40). */
  sites?: number;
  /** Per-site latency in ms (default 0). */
  latencyMs?: (index: number) => number;
  /** Per-site behaviour for an account; default: knownUser found on i % 3 === 0, a block page on i % 10 === 1. */
  behaviour?: (index: number, account: string) => SiteBehaviour;
  /** Where the site list is written (default a temporary directory). */
  dir?: string;
  /**
   * Give each site its own host name (`s<i>.sites.test`, answered by the fake DNS with 127.0.0.1), as
   * real sites have, so the fetcher's per-host politeness limit applies per site and not to all at once.
   */
  hostnames?: boolean;
};

export type FakeOsint = {
  httpBase: string;
  dnsServer: string;
  sitesFile: string;
  /** Environment that points the app at these fakes (including the loopback allow-list). */
  env: Record<string, string>;
  /** Every DNS question asked, as `TYPE name`. */
  dnsQueries: string[];
  /** Requests each site received. */
  siteHits: number[];
  /** Outages to inject while the app is in use (chaos tests); set fields back to 'ok' to recover. */
  faults: FakeFaults;
  /** Site requests open right now (a hanging site's stay open until the client gives up). */
  openSiteRequests(): number;
  /** Resolves once `test(open site requests)` holds, checked at each site request opening or closing. */
  waitForOpenSites(test: (open: number) => boolean): Promise<number>;
  close(): Promise<void>;
};

export type FakeFaults = {
  /** DNS: answer, SERVFAIL every question, or never answer (the client times out). */
  dns: 'ok' | 'servfail' | 'silent';
  /** RDAP, crt.sh, Gravatar, HIBP: answer, drop every connection, or answer 200 with garbage. */
  services: 'ok' | 'down' | 'garbage';
  /** The profile sites: answer, or drop every connection. */
  sites: 'ok' | 'down';
};

const RECORD = { A: 1, NS: 2, CNAME: 5, PTR: 12, MX: 15, TXT: 16, AAAA: 28 } as const;
type Zone = Record<string, Partial<Record<keyof typeof RECORD, unknown[]>>>;

const ZONE: Zone = {
  'example.test': {
    A: ['127.0.0.1'],
    MX: [{ exchange: 'mail.example.test', priority: 10 }],
    NS: ['ns1.example.test', 'ns2.example.test'],
    TXT: ['v=spf1 include:_spf.example.test -all', 'google-site-verification=abc'],
  },
  '_dmarc.example.test': { TXT: ['v=DMARC1; p=reject; rua=mailto:d@example.test'] },
  'nospf.test': { A: ['127.0.0.1'], NS: ['ns1.nospf.test'] },
  'private.test': { A: ['10.0.0.1'] },
  'loopback.test': { A: ['127.0.0.1'] },
  'metadata.test': { A: ['169.254.169.254'] },
  'ula.test': { AAAA: ['fc00::1'] },
  'mapped.test': { AAAA: ['::ffff:127.0.0.1'] },
  '8.8.8.8.in-addr.arpa': { PTR: ['dns.google'] },
};

export async function startFakeOsint(options: FakeOsintOptions = {}): Promise<FakeOsint> {
  const siteCount = options.sites ?? 40;
  const latency = options.latencyMs ?? (() => 0);
  const behaviour = options.behaviour ?? defaultBehaviour;
  const dnsQueries: string[] = [];
  const siteHits = new Array<number>(siteCount).fill(0);
  const rebindCount = new Map<string, number>();
  const sockets = new Set<Duplex>();
  const timers = new Set<NodeJS.Timeout>();
  const faults: FakeFaults = { dns: 'ok', services: 'ok', sites: 'ok' };
  let openSites = 0;
  const siteEvents = new EventEmitter();
  siteEvents.setMaxListeners(0);

  // DNS: answers from ZONE; each rebinding name (rebind.test, rebind-<x>.test) answers 127.0.0.1 once, then 127.0.0.2.
  const dns = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = dns2.Packet.createResponseFromRequest(request);
      const q = request.questions[0];
      if (faults.dns === 'silent') return;
      if (faults.dns === 'servfail') {
        response.header.rcode = 2; // SERVFAIL
        return send(response);
      }
      if (!q) return send(response);
      const name = q.name.toLowerCase();
      const typeName = (Object.keys(RECORD) as (keyof typeof RECORD)[]).find((k) => RECORD[k] === q.type);
      dnsQueries.push(`${typeName ?? q.type} ${name}`);
      const zone = /^rebind(-[a-z0-9]+)?\.test$/.test(name)
        ? { A: [rebindAnswer(name)] }
        : /^[a-z]\d+\.sites\.test$/.test(name)
          ? { A: ['127.0.0.1'] }
          : ZONE[name];
      if (!zone) {
        response.header.rcode = 3; // NXDOMAIN
        return send(response);
      }
      for (const value of (typeName && zone[typeName]) || []) {
        // dns2's Resource type wants its encoder attached; the encoder is picked by `type` when sending.
        response.answers.push({
          name: q.name,
          type: q.type,
          class: 1,
          ttl: 1,
          ...recordFields(typeName!, value),
        } as never);
      }
      send(response);
    },
  });
  const rebindAnswer = (name: string) => {
    const n = (rebindCount.get(name) ?? 0) + 1;
    rebindCount.set(name, n);
    return n === 1 ? '127.0.0.1' : '127.0.0.2';
  };
  await dns.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const dnsPort = (dns.addresses().udp as AddressInfo).port;

  let base = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const json = (status: number, body: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(JSON.stringify(body));
    };
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const isService = ['rdap', 'rdap-server', 'ct', 'gravatar', 'hibp'].includes(parts[0] ?? '');
    if ((isService && faults.services === 'down') || (parts[0] === 'sites' && faults.sites === 'down')) {
      req.socket.destroy();
      return;
    }
    if (isService && faults.services === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('<html>\u0000 not json {{{');
      return;
    }

    if (parts[0] === 'sites') {
      const index = Number(parts[1]);
      const account = parts[2] ?? '';
      if (!Number.isInteger(index) || index < 0 || index >= siteCount) return json(404, {});
      siteHits[index] = (siteHits[index] ?? 0) + 1;
      openSites += 1;
      siteEvents.emit('change', openSites);
      res.on('close', () => {
        openSites -= 1;
        siteEvents.emit('change', openSites);
      });
      const mode = behaviour(index, account);
      if (mode === 'hang') return; // never answers: the client's time limit decides
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (mode === 'found') {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end(
            `<html><title>${account}</title><div class="profile-header">${account}'s profile</div></html>`,
          );
        } else if (mode === 'blocked') {
          res.writeHead(403, { 'content-type': 'text/html' });
          res.end('<html><title>Just a moment...</title>Checking your browser (captcha)</html>');
        } else {
          res.writeHead(404, { 'content-type': 'text/html' });
          res.end('<html><title>Not Found</title>This user does not exist</html>');
        }
      }, latency(index));
      timers.add(timer);
      return;
    }
    if (parts[0] === 'rdap' && parts.length === 2) {
      const kind = parts[1]!.replace('.json', '');
      const entries =
        kind === 'dns'
          ? [['test', 'example']]
          : kind === 'ipv4'
            ? [['8.0.0.0/8', '1.0.0.0/8']]
            : [['2001:4860::/32']];
      return json(200, {
        version: '1.0',
        publication: '2026-01-01T00:00:00Z',
        services: entries.map((e) => [e, [`${base}/rdap-server/`]]),
      });
    }
    if (parts[0] === 'rdap-server' && parts[1] === 'domain') {
      const name = (parts[2] ?? '').toLowerCase();
      if (name !== FAKE.domain && name !== FAKE.noMailAuthDomain) {
        return json(404, { errorCode: 404, title: 'Not Found' }, 'application/rdap+json');
      }
      return json(200, rdapDomain(name), 'application/rdap+json');
    }
    if (parts[0] === 'rdap-server' && parts[1] === 'ip') {
      return json(200, rdapIp(parts[2] ?? ''), 'application/rdap+json');
    }
    if (parts[0] === 'ct') {
      const q = (url.searchParams.get('q') ?? '').replace(/^%\./, '');
      if (url.searchParams.get('output') !== 'json') return json(400, {});
      return json(200, q === FAKE.domain ? ctEntries(q) : []);
    }
    if (parts[0] === 'gravatar' && parts[1] === 'profiles') {
      if (parts[2] !== sha256(FAKE.gravatarEmail)) return json(404, { error: 'Profile not found' });
      return json(200, {
        hash: parts[2],
        display_name: 'Jane Example',
        profile_url: 'https://gravatar.com/janeexample',
        avatar_url: 'https://0.gravatar.com/avatar/x',
        location: 'Lisbon, Portugal',
        description: 'Security researcher',
        job_title: 'Engineer',
        company: 'Example Ltd',
        verified_accounts: [{ service_label: 'GitHub', url: 'https://github.com/janeexample' }],
      });
    }
    if (parts[0] === 'hibp' && parts[1] === 'breachedaccount') {
      if (req.headers['hibp-api-key'] !== FAKE.hibpApiKey)
        return json(401, { statusCode: 401, message: 'Access denied' });
      if (parts[2]?.toLowerCase() !== FAKE.breachedEmail) return res.writeHead(404).end();
      return json(200, [
        {
          Name: 'Adobe',
          Title: 'Adobe',
          Domain: 'adobe.com',
          BreachDate: '2013-10-04',
          PwnCount: 152445165,
          DataClasses: ['Email addresses', 'Passwords'],
        },
        {
          Name: 'LinkedIn',
          Title: 'LinkedIn',
          Domain: 'linkedin.com',
          BreachDate: '2012-05-05',
          PwnCount: 164611595,
          DataClasses: ['Email addresses', 'Passwords'],
        },
      ]);
    }
    json(404, { error: 'unknown fake path' });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // The domain's web site: https with a fresh self-signed certificate valid for 10 days.
  const tls = selfSignedCertificate(FAKE.domain);
  const site = https.createServer({ key: tls.key, cert: tls.cert }, (_req, res) => {
    res.writeHead(200, {
      'content-type': 'text/html',
      'strict-transport-security': 'max-age=31536000',
      'x-frame-options': 'DENY',
      server: 'fake-site',
    });
    res.end('<html><title>example.test</title></html>');
  });
  site.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const sitePort = (site.address() as AddressInfo).port;

  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'fake-osint-'));
  const sitesFile = path.join(dir, 'sites.json');
  const port = (server.address() as AddressInfo).port;
  fs.writeFileSync(
    sitesFile,
    JSON.stringify(
      siteList(options.hostnames ? (i) => `http://s${i}.sites.test:${port}` : () => base, siteCount),
    ),
  );

  return {
    httpBase: base,
    dnsServer: `127.0.0.1:${dnsPort}`,
    sitesFile,
    dnsQueries,
    siteHits,
    faults,
    openSiteRequests: () => openSites,
    waitForOpenSites: (test) =>
      new Promise((resolve) => {
        if (test(openSites)) return resolve(openSites);
        const onChange = (n: number) => {
          if (!test(n)) return;
          siteEvents.off('change', onChange);
          resolve(n);
        };
        siteEvents.on('change', onChange);
      }),
    env: {
      DNS_SERVERS: `127.0.0.1:${dnsPort}`,
      OUTBOUND_TEST_ALLOW: '127.0.0.1',
      RDAP_BOOTSTRAP_URL: `${base}/rdap`,
      CT_SEARCH_URL: `${base}/ct`,
      GRAVATAR_API_URL: `${base}/gravatar`,
      HIBP_API_URL: `${base}/hibp`,
      HIBP_API_KEY: FAKE.hibpApiKey,
      OSINT_SITES_FILE: sitesFile,
      OSINT_SITE_URL: `https://{domain}:${sitePort}/`,
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await Promise.all([
        new Promise((r) => server.close(r)),
        new Promise((r) => site.close(r)),
        dns.close(),
      ]);
      if (!options.dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function defaultBehaviour(index: number, account: string): SiteBehaviour {
  if (index % 10 === 1) return 'blocked';
  return account === FAKE.knownUser && index % 3 === 0 ? 'found' : 'missing';
}

/** A WhatsMyName-format list: the first sites carry the top sites' names, so e-mail and person scans use them. */
export function siteList(base: (index: number) => string, count: number) {
  const sites = Array.from({ length: count }, (_, i) => ({
    name: TOP_SITE_NAMES[i] ?? `Fixture Site ${String(i).padStart(3, '0')}`,
    uri_check: `${base(i)}/sites/${i}/{account}`,
    e_code: 200,
    e_string: 'class="profile-header"',
    m_code: 404,
    m_string: 'This user does not exist',
    known: ['alice'],
    cat: 'social',
  }));
  return { license: ['Fixture data'], authors: [], categories: ['social'], sites };
}

function recordFields(type: keyof typeof RECORD, value: unknown): Record<string, unknown> {
  switch (type) {
    case 'A':
    case 'AAAA':
      return { address: value };
    case 'MX':
      return value as Record<string, unknown>;
    case 'NS':
      return { ns: value };
    case 'PTR':
    case 'CNAME':
      return { domain: value };
    case 'TXT':
      return { data: value };
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function rdapDomain(name: string) {
  const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
  return {
    objectClassName: 'domain',
    ldhName: name.toUpperCase(),
    handle: `${name.toUpperCase()}-TEST`,
    status: ['client transfer prohibited'],
    events: [
      { eventAction: 'registration', eventDate: '2001-03-15T00:00:00Z' },
      { eventAction: 'last changed', eventDate: '2025-02-01T00:00:00Z' },
      // nospf.test lapses soon (registration risk rule).
      { eventAction: 'expiration', eventDate: name === FAKE.domain ? inDays(400) : inDays(10) },
    ],
    entities: [
      {
        objectClassName: 'entity',
        roles: ['registrar'],
        handle: '292',
        vcardArray: [
          'vcard',
          [
            ['version', {}, 'text', '4.0'],
            ['fn', {}, 'text', 'Example Registrar, Inc.'],
          ],
        ],
      },
    ],
    nameservers: [{ objectClassName: 'nameserver', ldhName: 'NS1.EXAMPLE.TEST' }],
  };
}

function rdapIp(address: string) {
  return {
    objectClassName: 'ip network',
    handle: 'NET-8-8-8-0-2',
    startAddress: '8.8.8.0',
    endAddress: '8.8.8.255',
    ipVersion: 'v4',
    name: 'GOGL',
    type: 'DIRECT ALLOCATION',
    country: 'US',
    query: address,
    entities: [
      {
        objectClassName: 'entity',
        roles: ['registrant'],
        handle: 'GOGL',
        vcardArray: [
          'vcard',
          [
            ['version', {}, 'text', '4.0'],
            ['fn', {}, 'text', 'Google LLC'],
          ],
        ],
      },
      {
        objectClassName: 'entity',
        roles: ['abuse'],
        handle: 'ABUSE5250-ARIN',
        vcardArray: ['vcard', [['fn', {}, 'text', 'Abuse']]],
      },
    ],
  };
}

function ctEntries(domain: string) {
  return ['www', 'mail', 'api', 'dev', '*.staging'].map((sub, i) => ({
    issuer_ca_id: 1,
    issuer_name: "C=US, O=Let's Encrypt, CN=R3",
    common_name: `${sub.replace('*.', '')}.${domain}`,
    name_value: `${sub}.${domain}\n${domain}`,
    id: 1000 + i,
    entry_timestamp: '2025-01-01T00:00:00',
    not_before: '2025-01-01T00:00:00',
    not_after: '2025-04-01T00:00:00',
    serial_number: `0${i}`,
  }));
}

function selfSignedCertificate(name: string): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-osint-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '10',
        '-subj',
        `/CN=${name}`,
        '-addext',
        `subjectAltName=DNS:${name}`,
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return {
      key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'),
      cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { OsintSearchResponse, type OsintSource, type PlatformData } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { type FakeOsint, startFakeOsint } from '../../test/fake-osint.ts';
import { SSRF_ADDRESSES, SSRF_NAMES } from '../../test/ssrf-matrix.ts';

/**
 * A search cannot make the server reach its own network, whatever the input: the SSRF matrix as a
 * domain, an ip, an e-mail's domain and a site URL, against the app in its production configuration
 * (no allow-list). A listener on every interface counts connections: it must see none.
 */

const MATRIX_HOSTS = SSRF_ADDRESSES;
const MATRIX_NAMES = SSRF_NAMES;

let fake: FakeOsint;
let ctx: TestContext;
let token: string;
let port: number;
let connections = 0;
let server: http.Server;
let dir: string;

beforeAll(async () => {
  fake = await startFakeOsint({ sites: 1 });
  server = http.createServer((_req, res) => res.end('reached'));
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  port = (server.address() as AddressInfo).port;

  // A site list whose every URL points at the matrix (as a profile site's URL would).
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ssrf-sites-'));
  const sitesFile = path.join(dir, 'sites.json');
  const hosts = [...MATRIX_HOSTS, ...MATRIX_NAMES];
  fs.writeFileSync(
    sitesFile,
    JSON.stringify({
      sites: hosts.map((h, i) => ({
        name: `Matrix ${i} ${h}`,
        uri_check: `http://${h}:${port}/u/{account}`,
        e_code: 200,
        e_string: 'reached',
        m_code: 404,
        m_string: '',
        cat: 'social',
        known: [],
      })),
    }),
  );
  const { OUTBOUND_TEST_ALLOW: _, ...productionLike } = fake.env;
  ctx = await createTestApp({
    ...productionLike,
    OSINT_SITES_FILE: sitesFile,
    OSINT_SITE_URL: `http://{domain}:${port}/`,
    OSINT_SEARCHES_PER_MINUTE: '1000',
  });
  expect(ctx.config.outbound.testAllow).toEqual([]);
  token = (await ctx.signIn()).token;
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function search(type: string, query: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/osint/search',
    headers: bearer(token),
    payload: { type, query },
  });
}

const sourceNamed = (sources: OsintSource[], name: string) => sources.find((s) => s.name === name);

describe('SSRF matrix', () => {
  it('as site URLs: every site is refused (unknown, never found) and none is reached', async () => {
    const res = await search('username', 'probe');
    const platforms = OsintSearchResponse.parse(res.json()).results.sources[0]!;
    const data = platforms.data as PlatformData;
    expect(data.summary).toEqual({
      foundOn: 0,
      totalPlatforms: MATRIX_HOSTS.length + MATRIX_NAMES.length,
      unknown: MATRIX_HOSTS.length + MATRIX_NAMES.length,
      notFound: 0,
    });
    expect(platforms.state).toBe('could_not_check');
    expect(res.json().results.summary.overallRisk).toBe('INCONCLUSIVE');
    expect(connections).toBe(0);
  });

  it.each([...MATRIX_HOSTS, ...MATRIX_NAMES])(
    'as a domain: %s is refused or its site is not reached',
    async (host) => {
      const res = await search('domain', host.replace(/^\[|\]$/g, ''));
      if (res.statusCode === 400) {
        expect(res.json().error).toMatch(/domain name/);
      } else {
        expect(res.statusCode).toBe(200);
        const site = sourceNamed(
          OsintSearchResponse.parse(res.json()).results.sources,
          'TLS Certificate & Headers',
        );
        expect(site?.status).toBe('Refused');
      }
      expect(connections).toBe(0);
    },
  );

  it.each(MATRIX_HOSTS)(
    'as an ip: %s is described as non-public and nothing is looked up or reached',
    async (host) => {
      const before = fake.dnsQueries.length;
      const res = await search('ip', host);
      expect(res.statusCode).toBe(200);
      const r = OsintSearchResponse.parse(res.json()).results;
      expect(r.sources.map((s) => s.name)).toEqual(['IP Address']);
      expect(r.sources[0]!.status).toBe('Private or reserved');
      expect(fake.dnsQueries.length).toBe(before);
      expect(connections).toBe(0);
    },
  );

  it.each([...MATRIX_HOSTS, ...MATRIX_NAMES])(
    'as an e-mail domain: user@%s reaches nothing',
    async (host) => {
      const res = await search('email', `user@${host}`);
      expect([200, 400]).toContain(res.statusCode);
      expect(connections).toBe(0);
    },
  );

  it('the fixed services themselves are refused on loopback without an allow-list (Gravatar, HIBP, RDAP, CT)', async () => {
    const res = await search('email', 'jane@example.test');
    const sources = OsintSearchResponse.parse(res.json()).results.sources;
    expect(sourceNamed(sources, 'Gravatar')?.status).toBe('Refused');
    expect(sourceNamed(sources, 'Have I Been Pwned')?.status).toBe('Refused');
  });
});

describe('a redirect to a private address (with the test allow-list for 127.0.0.1 only)', () => {
  it('as a site URL and as a service (Gravatar) answer: never followed to 127.0.0.2 or metadata', async () => {
    let privateHits = 0;
    const privateServer = http.createServer((_req, res) => res.end('private'));
    privateServer.on('connection', () => {
      privateHits += 1;
    });
    await new Promise<void>((resolve) => privateServer.listen(0, '127.0.0.2', resolve));
    const privatePort = (privateServer.address() as AddressInfo).port;
    const targets = [`http://127.0.0.2:${privatePort}/x`, 'http://169.254.169.254/latest/meta-data/'];
    let n = 0;
    const redirector = http.createServer((_req, res) => {
      res.writeHead(302, { location: targets[n++ % targets.length] }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
    const sitesFile = path.join(dir, 'redirect-sites.json');
    fs.writeFileSync(
      sitesFile,
      JSON.stringify({
        sites: [0, 1].map((i) => ({
          name: `Redirecting ${i}`,
          uri_check: `${base}/u${i}/{account}`,
          e_code: 200,
          e_string: 'private',
          m_code: 404,
          m_string: '',
          cat: 'social',
        })),
      }),
    );
    const app = await createTestApp({ ...fake.env, OSINT_SITES_FILE: sitesFile, GRAVATAR_API_URL: base });
    try {
      const t = (await app.signIn()).token;
      const call = (type: string, query: string) =>
        app.app.inject({
          method: 'POST',
          url: '/api/osint/search',
          headers: bearer(t),
          payload: { type, query },
        });
      const scan = OsintSearchResponse.parse((await call('username', 'probe')).json()).results;
      expect((scan.sources[0]!.data as PlatformData).summary).toMatchObject({ foundOn: 0, unknown: 2 });
      for (let i = 0; i < 2; i += 1) {
        const email = OsintSearchResponse.parse((await call('email', `u${i}@example.test`)).json()).results;
        expect(sourceNamed(email.sources, 'Gravatar')?.status).toBe('Refused');
      }
      expect(privateHits).toBe(0);
    } finally {
      await app.close();
      redirector.closeAllConnections();
      await new Promise((r) => redirector.close(r));
      await new Promise((r) => privateServer.close(r));
    }
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { type FakeOsint, startFakeOsint } from '../../test/fake-osint.ts';
import { SSRF_ADDRESSES, SSRF_NAMES } from '../../test/ssrf-matrix.ts';
import { deadline } from '../../test/time-scale.ts';
import { isPublicAddress } from './address-policy.ts';
import { OutboundRefusedError, OutboundTimeoutError } from './errors.ts';
import { createOutbound, MAX_BODY_BYTES, type Outbound } from './fetcher.ts';
import { createLimiter } from './limiter.ts';
import { createResolver } from './resolver.ts';

/**
 * The one outbound fetcher: what it refuses (the SSRF matrix), that it connects to the address it
 * checked, re-checks redirects, and caps body, time and concurrency. Listeners on loopback count every
 * connection they get, so "refused" is proven by "never reached".
 */

type Listener = { port: number; connections: number; close: () => Promise<void> };

async function listener(host: string, handler?: http.RequestListener): Promise<Listener> {
  const server = http.createServer(handler ?? ((_req, res) => res.end('reached')));
  const state = { connections: 0 };
  server.on('connection', () => {
    state.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return state.connections;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

let fake: FakeOsint;
let target: Listener; // on every interface: whatever loopback spelling is used, it would see the connection
const open: Outbound[] = [];

function fetcher(allow: string[] = [], extra: Partial<Parameters<typeof createOutbound>[0]> = {}): Outbound {
  const outbound = createOutbound({
    resolver: createResolver([fake.dnsServer]),
    concurrency: 8,
    timeoutMs: 2000,
    allow,
    ...extra,
  });
  open.push(outbound);
  return outbound;
}

beforeAll(async () => {
  fake = await startFakeOsint({ sites: 1 });
  target = await listener('::'); // dual-stack: 127.0.0.1, ::1 and ::ffff:127.0.0.1 all land here
});
afterAll(async () => {
  await target.close();
  await fake.close();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

describe('the production configuration', () => {
  it('carries no allow-list: with no environment the fetcher may reach no loopback address', () => {
    const config = loadConfig({});
    expect(config.outbound.testAllow).toEqual([]);
  });

  it('refuses an allow-list that names anything but loopback', () => {
    expect(() => loadConfig({ OUTBOUND_TEST_ALLOW: '10.0.0.1' })).toThrow(/OUTBOUND_TEST_ALLOW/);
    expect(() => loadConfig({ OUTBOUND_TEST_ALLOW: '169.254.169.254' })).toThrow(/OUTBOUND_TEST_ALLOW/);
  });
});

describe('address policy', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.0.1',
    '192.168.0.1',
    '169.254.169.254',
    '100.100.100.200',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '::1',
    '::',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888'])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('the SSRF matrix (no allow-list, as in production)', () => {
  // The shared matrix, plus a hex shorthand the URL parser normalises to 127.0.0.1.
  const hosts = [...SSRF_ADDRESSES, '0x7f.1', ...SSRF_NAMES];

  it.each(hosts)('http://%s is refused and never reached', async (host) => {
    const before = target.connections;
    const url = `http://${host}:${target.port}/latest/meta-data/`;
    await expect(fetcher().fetch(url)).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(target.connections).toBe(before);
  });

  it('refuses schemes other than http(s) and URLs with credentials', async () => {
    await expect(fetcher().fetch('file:///etc/passwd')).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(fetcher().fetch('gopher://127.0.0.1:70/')).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(fetcher().fetch(`http://u:p@example.test:${target.port}/`)).rejects.toBeInstanceOf(
      OutboundRefusedError,
    );
  });
});

describe('with the test allow-list (127.0.0.1 only)', () => {
  it('reaches the allow-listed address by name and by literal', async () => {
    const before = target.connections;
    const res = await fetcher(['127.0.0.1']).fetch(`http://loopback.test:${target.port}/`);
    expect(res.status).toBe(200);
    expect(res.body).toBe('reached');
    expect(target.connections).toBeGreaterThan(before);
  });

  it('still refuses other loopback addresses and IPv6 loopback', async () => {
    const before = target.connections;
    for (const host of ['127.0.0.2', '[::1]', '[::ffff:127.0.0.2]']) {
      await expect(fetcher(['127.0.0.1']).fetch(`http://${host}:${target.port}/`)).rejects.toBeInstanceOf(
        OutboundRefusedError,
      );
    }
    expect(target.connections).toBe(before);
  });

  it('re-checks every redirect: a redirect to a private address is refused and not followed', async () => {
    const privateTarget = await listener('127.0.0.2');
    const redirector = await listener('127.0.0.1', (req, res) => {
      const to = req.url === '/hop' ? '/final' : `http://127.0.0.2:${privateTarget.port}/secret`;
      res.writeHead(302, { location: req.url === '/start' ? '/hop' : to }).end();
    });
    try {
      await expect(
        fetcher(['127.0.0.1']).fetch(`http://127.0.0.1:${redirector.port}/start`, { followRedirects: false }),
      ).resolves.toMatchObject({ status: 302, redirects: 0 });
      // /start → /hop → 127.0.0.2 (refused)
      await expect(
        fetcher(['127.0.0.1']).fetch(`http://127.0.0.1:${redirector.port}/hop`),
      ).rejects.toBeInstanceOf(OutboundRefusedError);
      for (const to of [
        'http://169.254.169.254/latest/',
        'http://[::1]/',
        'http://2130706434/',
      ] /* 127.0.0.2 */) {
        const r = await listener('127.0.0.1', (_req, res) => res.writeHead(301, { location: to }).end());
        await expect(fetcher(['127.0.0.1']).fetch(`http://127.0.0.1:${r.port}/`)).rejects.toBeInstanceOf(
          OutboundRefusedError,
        );
        await r.close();
      }
      expect(privateTarget.connections).toBe(0);
    } finally {
      await privateTarget.close();
      await redirector.close();
    }
  });

  it('follows at most 3 redirects', async () => {
    const loop = await listener('127.0.0.1', (req, res) => {
      const n = Number(req.url?.slice(1) || 0);
      res.writeHead(302, { location: `/${n + 1}` }).end();
    });
    try {
      await expect(fetcher(['127.0.0.1']).fetch(`http://127.0.0.1:${loop.port}/0`)).rejects.toThrow(
        /More than 3 redirects/,
      );
    } finally {
      await loop.close();
    }
  });

  it('connects to the address it checked: a rebinding name is looked up once per connection', async () => {
    // rebind.test answers 127.0.0.1 on its first query and 127.0.0.2 afterwards.
    const second = await listener('127.0.0.2');
    const name = 'rebind-once.test';
    try {
      const res = await fetcher(['127.0.0.1']).fetch(`http://${name}:${target.port}/`);
      expect(res.body).toBe('reached');
      expect(fake.dnsQueries.filter((q) => q === `A ${name}`)).toHaveLength(1);
      // A new connection looks the name up again, gets 127.0.0.2, and is refused before connecting.
      await expect(fetcher(['127.0.0.1']).fetch(`http://${name}:${second.port}/`)).rejects.toBeInstanceOf(
        OutboundRefusedError,
      );
      expect(second.connections).toBe(0);
    } finally {
      await second.close();
    }
  });

  it('caps the body at 1 MiB', async () => {
    const big = await listener('127.0.0.1', (_req, res) => {
      res.writeHead(200);
      res.end(Buffer.alloc(MAX_BODY_BYTES + 500_000, 'a'));
    });
    try {
      const res = await fetcher(['127.0.0.1']).fetch(`http://127.0.0.1:${big.port}/`);
      expect(res.truncated).toBe(true);
      expect(res.body.length).toBe(MAX_BODY_BYTES);
    } finally {
      await big.close();
    }
  });

  it('times out a server that never answers', async () => {
    const silent = await listener('127.0.0.1', () => {});
    try {
      const started = Date.now();
      await expect(
        fetcher(['127.0.0.1']).fetch(`http://127.0.0.1:${silent.port}/`, { timeoutMs: 200 }),
      ).rejects.toBeInstanceOf(OutboundTimeoutError);
      expect(Date.now() - started).toBeLessThan(deadline(2000));
    } finally {
      await silent.close();
    }
  });

  it('keeps at most `concurrency` requests in flight over all callers', async () => {
    let inFlight = 0;
    let peak = 0;
    const slow = await listener('127.0.0.1', (_req, res) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.end('ok');
      }, 30);
    });
    try {
      // (One host: its politeness limit is lifted here to see the global cap alone.)
      const outbound = fetcher(['127.0.0.1'], { concurrency: 3, perHost: 100 });
      await Promise.all(
        Array.from({ length: 12 }, (_, i) => outbound.fetch(`http://127.0.0.1:${slow.port}/${i}`)),
      );
      expect(peak).toBe(3);
      expect(outbound.limiter.peak).toBe(3);
      // With the default politeness, one host never sees more than PER_HOST_CONCURRENCY at once, and
      // one caller gets at most half of them.
      peak = 0;
      const polite = fetcher(['127.0.0.1'], { concurrency: 50 });
      await Promise.all(
        Array.from({ length: 12 }, (_, i) => polite.fetch(`http://127.0.0.1:${slow.port}/${i}`)),
      );
      expect(peak).toBe(2);
    } finally {
      await slow.close();
    }
  });
});

describe('what a site sees and what is read (issue 28)', () => {
  it('a caller’s headers replace the defaults whatever their case, one value each', async () => {
    let seen: http.IncomingHttpHeaders = {};
    let raw: string[] = [];
    const site = await listener('127.0.0.1', (req, res) => {
      seen = req.headers;
      raw = req.rawHeaders;
      res.end('ok');
    });
    try {
      await fetcher(['127.0.0.1']).fetch(`http://127.0.0.1:${site.port}/`, {
        headers: { 'User-Agent': 'SiteSpecific/1.0', Accept: 'application/json' },
      });
      expect(seen['user-agent']).toBe('SiteSpecific/1.0');
      expect(seen.accept).toBe('application/json');
      expect(raw.filter((h) => /^user-agent$/i.test(h))).toHaveLength(1);
      expect(raw.filter((h) => /^accept$/i.test(h))).toHaveLength(1);
      // Without one, a browser's User-Agent; the honest one is configurable.
      await fetcher(['127.0.0.1']).fetch(`http://127.0.0.1:${site.port}/`);
      expect(seen['user-agent']).toMatch(/^Mozilla\/5\.0 \(Windows NT 10\.0; Win64; x64\).*Chrome\//);
      await fetcher(['127.0.0.1'], { userAgent: 'GuildhallOSINT' }).fetch(`http://127.0.0.1:${site.port}/`);
      expect(seen['user-agent']).toBe('GuildhallOSINT');
    } finally {
      await site.close();
    }
  });

  it('decodes gzip, deflate and br bodies and honours the charset (header or <meta>)', async () => {
    const cyrillic = 'Профиль пользователя';
    const cp1251 = Buffer.from([0xcf, 0xf0, 0xee, 0xf4, 0xe8, 0xeb, 0xfc]); // "Профиль"
    const site = await listener('127.0.0.1', (req, res) => {
      const html = `<html><body>${cyrillic}</body></html>`;
      if (req.url === '/gzip') res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync(html));
      else if (req.url === '/deflate')
        res.writeHead(200, { 'content-encoding': 'deflate' }).end(zlib.deflateSync(html));
      else if (req.url === '/br')
        res.writeHead(200, { 'content-encoding': 'br' }).end(zlib.brotliCompressSync(html));
      else if (req.url === '/cp1251-header')
        res.writeHead(200, { 'content-type': 'text/html; charset=windows-1251' }).end(cp1251);
      else
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(Buffer.concat([Buffer.from('<meta charset="windows-1251">'), cp1251]));
    });
    try {
      const out = fetcher(['127.0.0.1']);
      for (const path of ['gzip', 'deflate', 'br']) {
        expect((await out.fetch(`http://127.0.0.1:${site.port}/${path}`)).body).toContain(cyrillic);
      }
      expect((await out.fetch(`http://127.0.0.1:${site.port}/cp1251-header`)).body).toBe('Профиль');
      expect((await out.fetch(`http://127.0.0.1:${site.port}/cp1251-meta`)).body).toContain('Профиль');
    } finally {
      await site.close();
    }
  });

  it('a scan finds a marker past the 1 MiB cap (and across chunk boundaries) while keeping only the head', async () => {
    const site = await listener('127.0.0.1', (_req, res) => {
      res.write('x'.repeat(1300 * 1024));
      res.write('<div class="prof');
      res.end('ile">Alice</div>');
    });
    try {
      const res = await fetcher(['127.0.0.1']).fetch(`http://127.0.0.1:${site.port}/`, {
        scan: {
          markers: ['class="profile"', 'no such user'],
          caseless: ['ALICE'],
          maxBytes: 8 * 1024 * 1024,
          keepChars: 1000,
        },
      });
      expect(res.markers).toEqual([true, false]);
      expect(res.caseless).toEqual([true]);
      expect(res.body).toHaveLength(1000);
      expect(res.truncated).toBe(false);
    } finally {
      await site.close();
    }
  });
});

describe('site inspection (the domain source)', () => {
  it('judges the headers of the page a visitor ends on, not of the apex redirect', async () => {
    const final = await listener('127.0.0.1', (_req, res) =>
      res.writeHead(200, { 'strict-transport-security': 'max-age=31536000' }).end('home'),
    );
    const apex = await listener('127.0.0.1', (_req, res) =>
      res.writeHead(301, { location: `http://127.0.0.1:${final.port}/home` }).end(),
    );
    try {
      const site = await fetcher(['127.0.0.1']).inspectSite(`http://127.0.0.1:${apex.port}/`);
      expect(site).toMatchObject({ status: 200, redirects: 1, url: `http://127.0.0.1:${final.port}/home` });
      expect(site.headers['strict-transport-security']).toBe('max-age=31536000');
    } finally {
      await apex.close();
      await final.close();
    }
  });
});

describe('the fair limiter', () => {
  const flush = () => new Promise((r) => setImmediate(r));
  it('caps each owner and serves waiting owners in turn; an aborted waiter leaves the queue', async () => {
    const limiter = createLimiter(4, 3);
    const started: string[] = [];
    const finish = new Map<string, () => void>();
    const run = (name: string, owner: string, signal?: AbortSignal) =>
      limiter.run(
        () =>
          new Promise<void>((resolve) => {
            started.push(name);
            finish.set(name, resolve);
          }),
        { owner, signal },
      );
    const a = ['a0', 'a1', 'a2', 'a3', 'a4'].map((n) => run(n, 'a'));
    await flush();
    // Owner a gets its share (3), not every slot; the fourth stays for others.
    expect(started).toEqual(['a0', 'a1', 'a2']);
    const b = ['b0', 'b1'].map((n) => run(n, 'b'));
    await flush();
    expect(started).toEqual(['a0', 'a1', 'a2', 'b0']);
    // A waiter whose member left is dropped from the queue.
    const gone = new AbortController();
    const dropped = run('c0', 'c', gone.signal);
    gone.abort(new Error('left'));
    await expect(dropped).rejects.toThrow('left');
    // Freed slots go round the owners with someone waiting: b1 (b's turn), then a3.
    finish.get('a0')!();
    await flush();
    expect(started.at(-1)).toBe('b1');
    finish.get('b0')!();
    await flush();
    expect(started.at(-1)).toBe('a3');
    for (const name of ['a1', 'a2', 'a3', 'b1']) finish.get(name)!();
    await flush();
    finish.get('a4')!();
    await Promise.all([...a, ...b]);
    expect(started).not.toContain('c0');
    expect(limiter.active).toBe(0);
    expect(limiter.waiting).toBe(0);
  });
});

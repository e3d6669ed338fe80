import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { type FakeOsint, startFakeOsint } from '../../test/fake-osint.ts';
import { SSRF_ADDRESSES, SSRF_NAMES } from '../../test/ssrf-matrix.ts';
import { isPublicAddress } from './address-policy.ts';
import { OutboundRefusedError, OutboundTimeoutError } from './errors.ts';
import { createOutbound, MAX_BODY_BYTES, type Outbound } from './fetcher.ts';
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
      expect(Date.now() - started).toBeLessThan(2000);
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
      const outbound = fetcher(['127.0.0.1'], { concurrency: 3 });
      await Promise.all(
        Array.from({ length: 12 }, (_, i) => outbound.fetch(`http://127.0.0.1:${slow.port}/${i}`)),
      );
      expect(peak).toBe(3);
      expect(outbound.limiter.peak).toBe(3);
    } finally {
      await slow.close();
    }
  });
});

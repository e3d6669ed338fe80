import { OsintSearchResponse, type OsintSource } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../platform/realtime/testing.ts';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { FAKE, type FakeOsint, startFakeOsint } from '../../test/fake-osint.ts';
import { deadline } from '../../test/time-scale.ts';

/**
 * Fair sharing of the outbound requests (issue 26, point 4): one member's username scans over sites that
 * never answer must not starve another member's e-mail search, a scan stops when its client goes away,
 * and a source's time limit does not count the wait for a slot.
 */

const HOG = 'hog';
let fake: FakeOsint;
let ctx: TestContext;
let base: string;
let hog: string;
let other: string;

beforeAll(async () => {
  // Every site hangs for the hog's account; the other member's local part is answered at once.
  fake = await startFakeOsint({
    sites: 120,
    hostnames: true,
    behaviour: (_i, account) => (account === HOG ? 'hang' : 'missing'),
  });
  ctx = await createTestApp({
    ...fake.env,
    OUTBOUND_CONCURRENCY: '24',
    OUTBOUND_PER_MEMBER: '16',
    OSINT_SITE_TIMEOUT_MS: '20000',
    OSINT_SEARCHES_PER_MINUTE: '100',
  });
  base = await listen(ctx.app);
  hog = (await ctx.signIn({ access_level: 'viewer' })).token;
  other = (await ctx.signIn({ access_level: 'viewer' })).token;
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

function startScan(token: string, signal: AbortSignal) {
  return fetch(`${base}/api/osint/search`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'username', query: HOG }),
    signal,
  }).then(
    (res) => res.status,
    () => 'aborted' as const,
  );
}

async function emailSearch(token: string) {
  const res = await fetch(`${base}/api/osint/search`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'email', query: FAKE.breachedEmail }),
  });
  expect(res.status).toBe(200);
  return OsintSearchResponse.parse(await res.json()).results;
}

const byName = (sources: OsintSource[], name: string) => sources.find((s) => s.name === name)!;

describe('fair share of outbound requests', () => {
  it('ten abandoned username scans stop when their client leaves; another member’s e-mail search completes normally', async () => {
    const statuses: (number | 'aborted')[] = [];
    for (let i = 0; i < 10; i += 1) {
      const client = new AbortController();
      const done = startScan(hog, client.signal);
      // The scan is running once the sites see its requests.
      await fake.waitForOpenSites((n) => n > 0);
      client.abort();
      statuses.push(await done);
      // Every request of the abandoned scan is cancelled: the sites see their connections close.
      await fake.waitForOpenSites((n) => n === 0);
    }
    expect(statuses).toEqual(Array(10).fill('aborted'));

    const started = Date.now();
    const r = await emailSearch(other);
    expect(byName(r.sources, 'Have I Been Pwned').status).toBe('Breached (2)');
    expect(byName(r.sources, 'MX Records').state).not.toBe('could_not_check');
    expect(Date.now() - started).toBeLessThan(deadline(10_000));
  });

  it('while one member’s scans hold their whole share, another member’s e-mail search gets slots at once', async () => {
    const client = new AbortController();
    const scans = [
      startScan(hog, client.signal),
      startScan(hog, client.signal),
      startScan(hog, client.signal),
    ];
    // The hog holds its per-member share (16 of 24) of requests that never answer.
    await fake.waitForOpenSites((n) => n >= 16);
    expect(fake.openSiteRequests()).toBe(16);
    try {
      const started = Date.now();
      const r = await emailSearch(other);
      expect(byName(r.sources, 'Gravatar').state).toBe('not_found');
      expect(byName(r.sources, 'Have I Been Pwned').status).toBe('Breached (2)');
      const local = byName(r.sources, 'Username "pwned" on top sites');
      expect(local.state).toBe('not_found');
      expect(Date.now() - started).toBeLessThan(deadline(10_000));
      // A fourth scan while three run is refused, not queued behind them.
      const fourth = await startScan(hog, new AbortController().signal);
      expect(fourth).toBe(429);
    } finally {
      client.abort();
      await Promise.all(scans);
      await fake.waitForOpenSites((n) => n === 0);
    }
  });
});

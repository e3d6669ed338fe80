import {
  OSINT_REPORTS_TO_DISABLE,
  OsintResult,
  OsintSearchResponse,
  type PlatformData,
} from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { FAKE, type FakeOsint, startFakeOsint } from '../../test/fake-osint.ts';
import { pruneSearches } from './history.ts';

/**
 * Reports and history (issue 28): each member's past searches are listed and reopened (after a
 * restart too), only by that member; the JSON and CSV exports carry the counts the screen shows;
 * old searches are dropped after OSINT_HISTORY_DAYS; wrong-result reports disable a site after
 * OSINT_REPORTS_TO_DISABLE members, and an admin's dismissal brings it back.
 */

const SITES = 40;
let fake: FakeOsint;
let first: TestContext;
let ctx: TestContext;

beforeAll(async () => {
  fake = await startFakeOsint({ sites: SITES });
  first = await createTestApp({
    ...fake.env,
    OSINT_SITE_TIMEOUT_MS: '500',
    OSINT_SEARCHES_PER_MINUTE: '100',
  });
  ctx = first;
});
afterAll(async () => {
  if (ctx !== first) await ctx.app.close();
  await first.close();
  await fake.close();
});

async function search(token: string, type: string, query: string) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/osint/search',
    headers: bearer(token),
    payload: { type, query },
  });
  expect(res.statusCode, res.body).toBe(200);
  return OsintSearchResponse.parse(res.json()).results;
}
const get = (token: string, url: string) => ctx.app.inject({ method: 'GET', url, headers: bearer(token) });

describe('history and export', () => {
  it('export as JSON and CSV carries the counts shown; a past search reopens after a restart, for its owner only', async () => {
    const { token } = await first.signIn({ access_level: 'viewer' });
    const { token: stranger } = await first.signIn({ access_level: 'viewer' });
    const shown = await search(token, 'username', FAKE.knownUser);
    const data = shown.sources[0]!.data as PlatformData;
    expect(shown.id).toBeTruthy();
    expect(data.summary.foundOn).toBeGreaterThan(5);
    expect(data.summary.unknown).toBeGreaterThan(0);

    const json = await get(token, `/api/osint/searches/${shown.id}/export?format=json`);
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-disposition']).toMatch(
      /^attachment; filename="osint-username-alice-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(OsintResult.parse(json.json())).toEqual(shown);

    const csv = await get(token, `/api/osint/searches/${shown.id}/export?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const rows = csv.body
      .trim()
      .split('\r\n')
      .slice(1)
      .map((r) => r.split(',')[0]);
    expect(rows.filter((k) => k === '"found"')).toHaveLength(data.summary.foundOn);
    expect(rows.filter((k) => k === '"unknown"')).toHaveLength(data.summary.unknown);

    // Someone else's search is as absent as a missing one.
    expect((await get(stranger, `/api/osint/searches/${shown.id}`)).statusCode).toBe(404);
    expect((await get(stranger, `/api/osint/searches/${shown.id}/export?format=csv`)).statusCode).toBe(404);
    expect((await get(stranger, '/api/osint/searches')).json().searches).toEqual([]);

    // Restart: the first server stops; a new one on the same database lists and reopens the search.
    const second = await createTestApp(fake.env, undefined, { sameDatabaseAs: first });
    await first.app.close();
    ctx = second;
    const list = await get(token, '/api/osint/searches');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({
      searches: [
        {
          id: shown.id,
          type: 'username',
          query: 'alice',
          overallRisk: shown.summary.overallRisk,
          createdAt: expect.any(String),
        },
      ],
      keptDays: 30,
    });
    const reopened = await get(token, `/api/osint/searches/${shown.id}`);
    expect(OsintSearchResponse.parse(reopened.json()).results).toEqual(shown);
  });

  it('drops searches older than OSINT_HISTORY_DAYS', async () => {
    const { token, userId } = await first.signIn({ access_level: 'viewer' });
    const old = new Date(Date.now() - 31 * 86_400_000).toISOString();
    await ctx.db
      .insertInto('osint_searches')
      .values({
        id: 'old-search-1',
        user_id: userId,
        type: 'phone',
        query: '+1',
        overall_risk: 'LOW',
        result: '{}',
        created_at: old,
      })
      .execute();
    expect((await get(token, '/api/osint/searches')).json().searches).toEqual([]);
    expect((await get(token, '/api/osint/searches/old-search-1')).statusCode).toBe(404);
    expect(await pruneSearches(ctx.db, 30, Date.now())).toBeGreaterThanOrEqual(1);
  });
});

describe('wrong-result reports', () => {
  it('a site reported by enough members leaves the scans until an admin dismisses the reports', async () => {
    const site = 'Reddit'; // fixture site 0: alice is found there
    let disabled = false;
    for (let i = 0; i < OSINT_REPORTS_TO_DISABLE; i += 1) {
      const { token } = await first.signIn({ access_level: 'viewer' });
      const r = await search(token, 'username', FAKE.knownUser);
      expect((r.sources[0]!.data as PlatformData).sources.map((s) => s.name)).toContain(site);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/osint/reports',
        headers: bearer(token),
        payload: { searchId: r.id, site, verdict: 'not_found', note: 'Not the same person' },
      });
      expect(res.statusCode, res.body).toBe(201);
      disabled = res.json().siteDisabled;
      expect(disabled).toBe(i === OSINT_REPORTS_TO_DISABLE - 1);
    }
    const { token } = await first.signIn({ access_level: 'viewer' });
    const after = await search(token, 'username', FAKE.knownUser);
    const data = after.sources[0]!.data as PlatformData;
    expect(data.summary.totalPlatforms).toBe(SITES - 1);
    expect(data.sources.map((s) => s.name)).not.toContain(site);
    expect(data.disabled).toEqual([site]);
    // A site not in the member's search cannot be reported through it.
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/api/osint/reports',
      headers: bearer(token),
      payload: { searchId: after.id, site: 'Nowhere', verdict: 'found' },
    });
    expect(bad.statusCode).toBe(400);

    const { token: admin } = await first.signIn({ access_level: 'admin' });
    const list = (await get(admin, '/api/osint/reports')).json();
    expect(list.reports.filter((r: { site: string }) => r.site === site)).toHaveLength(
      OSINT_REPORTS_TO_DISABLE,
    );
    expect(list.disabledSites.map((d: { name: string }) => d.name)).toEqual([site]);
    const decide = await ctx.app.inject({
      method: 'PUT',
      url: `/api/osint/reports/${list.reports[0].id}`,
      headers: bearer(admin),
      payload: { decision: 'dismissed' },
    });
    expect(decide.json()).toEqual({ site, siteDisabled: false });
    const again = await search(token, 'username', FAKE.knownUser);
    expect((again.sources[0]!.data as PlatformData).summary.totalPlatforms).toBe(SITES);
  });
});

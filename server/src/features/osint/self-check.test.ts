import { OsintSiteListInfo } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOsintCommand } from '../../cli/osint-commands.ts';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { FAKE, type FakeOsint, startFakeOsint } from '../../test/fake-osint.ts';

/**
 * The admins' site-list self-check (`npm run admin -- osint self-check`): a site that does not find its
 * known account, or finds a random name, is disabled; blocked sites are reported and kept; the screen
 * shows how many are disabled and when the check last ran.
 */

const SITES = 30;
let fake: FakeOsint;
let ctx: TestContext;

beforeAll(async () => {
  // Every site lists alice as known; she is found on i % 3 === 0, site i % 10 === 1 is a block page.
  fake = await startFakeOsint({ sites: SITES });
  ctx = await createTestApp({ ...fake.env, OSINT_SITE_TIMEOUT_MS: '2000', OSINT_SEARCHES_PER_MINUTE: '100' });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

describe('osint self-check', () => {
  it('disables the sites that answer wrongly, keeps blocked ones, and the screen shows it', async () => {
    const indexes = Array.from({ length: SITES }, (_, i) => i);
    const blocked = indexes.filter((i) => i % 10 === 1);
    const ok = indexes.filter((i) => i % 3 === 0 && i % 10 !== 1);
    const failed = indexes.filter((i) => i % 3 !== 0 && i % 10 !== 1);

    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    expect(await runOsintCommand(ctx.db, ctx.config, ['self-check', '--dry-run'], io)).toBe(0);
    expect(lines.at(-1)).toBe(
      `${SITES} sites: ${ok.length} ok, ${failed.length} failed, ${blocked.length} could not be checked. Dry run: nothing changed.`,
    );
    lines.length = 0;
    expect(await runOsintCommand(ctx.db, ctx.config, ['self-check'], io)).toBe(0);
    expect(lines.at(-1)).toBe(
      `${SITES} sites: ${ok.length} ok, ${failed.length} failed, ${blocked.length} could not be checked. Disabled ${failed.length}, enabled again 0.`,
    );
    // Site 1 (Instagram) is a block page, site 2 (TikTok) does not find alice.
    expect(lines).toContain(`failed   TikTok: known account "${FAKE.knownUser}" not found`);
    expect(lines).toContain('unknown  Instagram: Blocked by a bot check (Cloudflare)');

    const { token } = await ctx.signIn({ access_level: 'viewer' });
    const info = OsintSiteListInfo.parse(
      (await ctx.app.inject({ method: 'GET', url: '/api/osint/sites', headers: bearer(token) })).json(),
    );
    expect(info).toMatchObject({
      sites: SITES - failed.length,
      disabled: failed.length,
      categories: ['social'],
    });
    expect(Date.now() - Date.parse(info.lastSelfCheck!)).toBeLessThan(60_000);
    expect(info.listDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/osint/search',
      headers: bearer(token),
      payload: { type: 'username', query: FAKE.knownUser },
    });
    expect(res.json().results.sources[0].data.summary.totalPlatforms).toBe(SITES - failed.length);
    expect(await runOsintCommand(ctx.db, ctx.config, ['self-check', 'extra'], io)).toBe(2);
  });
});

import fs from 'node:fs/promises';
import path from 'node:path';
import { isPlatformData, OSINT_TEXTS, OSINT_TOOLS, OsintResult } from '@guildhall/common';
import type { Page } from '@playwright/test';
import { FAKE } from '../server/src/test/fake-osint.ts';
import { expectNoSeriousA11y } from './support/a11y.ts';
import { expect, signedInContext, test } from './support/fixtures.ts';
import { screenshot, shot } from './support/shots.ts';

/**
 * /infosec against the loopback fakes of every source (started with the app, see support/start-app.ts):
 * each type searched, the summary, "+N more", the progress of a username scan pushed over the realtime
 * channel, and screenshots at 1280 and 375 px.
 */

const SHOTS = path.resolve(import.meta.dirname, '../.tmp/screenshots');

async function searchFor(page: Page, type: string, query: string) {
  await page.getByTestId(`osint-type-${type}`).click();
  await page.getByTestId('osint-query').fill(query);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

const source = (page: Page, name: string) =>
  page.locator(`[data-testid=osint-source][data-source="${name}"]`);

test('[viewer] searches every type against the fakes; a username scan shows its progress and "+N more"', async ({
  browser,
}) => {
  // Screenshots in both themes at two widths (E2E_SHOTS) take most of a minute on a loaded machine.
  test.setTimeout(process.env.E2E_SHOTS ? 150_000 : 60_000);
  const { context, page } = await signedInContext(browser, { access_level: 'viewer' });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/infosec');

  // The static parts of the screen.
  await expect(page.getByRole('heading', { name: 'OSINT Tools' })).toBeVisible();
  await expect(page.getByTestId('osint-disclaimer')).toContainText(OSINT_TEXTS.disclaimer);
  for (const t of [...OSINT_TOOLS.active, ...OSINT_TOOLS.comingSoon]) {
    await expect(page.getByTestId('osint-tools')).toContainText(t);
  }
  await expect(page.getByTestId('osint-databases')).toContainText('Have I Been Pwned');
  const search = page.getByRole('button', { name: 'Search', exact: true });
  await expect(search).toBeDisabled();

  // Username: progress streams in (sites checked / total, hits so far), then the result.
  await searchFor(page, 'username', FAKE.knownUser);
  await expect(page.getByRole('button', { name: 'Searching…' })).toBeDisabled();
  await expect(page.getByTestId('osint-progress-count')).toContainText(/\d+ \/ 40 sites checked/);
  await expect(page.getByTestId('osint-progress-hits')).toContainText('Reddit');
  await screenshot(page, { path: `${SHOTS}/osint-progress-1280.png` });
  await expect(page.getByTestId('summary-type')).toContainText('Username');
  // The fake: found on every third site (14) except block pages (i % 10 === 1): 0,3,6,…,39 minus 21 → 13.
  await expect(page.getByTestId('summary-platforms')).toContainText('13');
  await expect(page.getByTestId('summary-risk')).toContainText('MEDIUM');
  await expect(page.getByTestId('platform-list').locator('a')).toHaveCount(5);
  await expect(page.getByTestId('platform-more')).toHaveText('+8 more');
  // The counts, the sites that could not be checked (grouped by why), the rule behind the risk.
  await expect(page.getByTestId('platform-counts')).toHaveText(
    'Found on 13 of 40 sites · not found on 23 · could not check 4',
  );
  await expect(page.getByTestId('source-risk-rule')).toHaveText(
    'Why medium: Found on 13 platforms (5–14: medium)',
  );
  await page.getByTestId('platform-unchecked').locator('summary').click();
  await expect(page.getByTestId('platform-unchecked')).toContainText(
    'Blocked by a bot check (Cloudflare) (4)',
  );
  await screenshot(page, { path: `${SHOTS}/osint-username-1280.png`, fullPage: true });
  // "+N more" opens the rest; every found site is a link.
  await page.getByTestId('platform-more').click();
  await expect(page.getByTestId('platform-list').locator('a')).toHaveCount(13);
  await shot(page, 'osint-username-expanded');
  // The export carries the counts the screen shows.
  const download = page.waitForEvent('download');
  await page.getByTestId('osint-export').getByRole('button', { name: 'CSV' }).click();
  const csv = await fs.readFile((await (await download).path())!, 'utf8');
  const kinds = csv
    .trim()
    .split('\r\n')
    .slice(1)
    .map((r) => r.split(',')[0]);
  // The counts as the screen shows them, read from the page (not restated).
  const counts = /Found on (\d+) of (\d+) sites · not found on (\d+) · could not check (\d+)/.exec(
    (await page.getByTestId('platform-counts').textContent()) ?? '',
  );
  const [screenFound, , , screenUnknown] = counts!.slice(1).map(Number);
  expect(kinds.filter((k) => k === '"found"')).toHaveLength(screenFound!);
  expect(kinds.filter((k) => k === '"unknown"')).toHaveLength(screenUnknown!);
  // The JSON export: the stored result, with the same found and could-not-check sites.
  const jsonDownload = page.waitForEvent('download');
  await page.getByTestId('osint-export').getByRole('button', { name: 'JSON' }).click();
  const json = OsintResult.parse(JSON.parse(await fs.readFile((await (await jsonDownload).path())!, 'utf8')));
  const platforms = json.sources.map((s) => s.data).filter(isPlatformData);
  expect(platforms.reduce((n, d) => n + d.sources.length, 0)).toBe(screenFound);
  expect(platforms.reduce((n, d) => n + (d.unchecked?.length ?? 0), 0)).toBe(screenUnknown);
  expect(json.summary.platformsFound).toBe(screenFound);
  // The search is in the member's history.
  await expect(page.getByTestId('osint-history')).toContainText(FAKE.knownUser);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByRole('button', { name: 'Show fewer' })).toBeVisible();
  await screenshot(page, { path: `${SHOTS}/osint-username-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await expectNoSeriousA11y(page);
  await shot(page, 'osint-username');

  // Email: breaches through the HIBP fake.
  await searchFor(page, 'email', FAKE.breachedEmail);
  await expect(source(page, 'Have I Been Pwned')).toContainText('Breached (2)');
  await expect(page.getByTestId('summary-risk')).toContainText('HIGH');

  // Phone: parsed offline.
  await searchFor(page, 'phone', '+44 20 7946 0958');
  await expect(source(page, 'Phone Number')).toContainText('United Kingdom');
  await expect(source(page, 'Phone Number')).toContainText('020 7946 0958');

  // Domain: DNS, RDAP, CT and the site's certificate.
  await searchFor(page, 'domain', FAKE.domain);
  await expect(source(page, 'RDAP Registration')).toContainText('Example Registrar, Inc.');
  await expect(source(page, 'Certificate Transparency')).toContainText('www.example.test');
  await expect(source(page, 'TLS Certificate & Headers')).toContainText('Untrusted certificate');
  await expect(page.getByTestId('osint-metadata')).toContainText('example.test');
  await screenshot(page, { path: `${SHOTS}/osint-domain-1280.png`, fullPage: true });
  await shot(page, 'osint-domain');

  // IP: reverse DNS, RDAP owner, offline geolocation.
  await searchFor(page, 'ip', FAKE.publicIp);
  await expect(source(page, 'RDAP Network')).toContainText('Google LLC');
  await expect(source(page, 'Geolocation')).toContainText('United States');

  // Person: candidate usernames, each one click from a search on every site (a pivot).
  await searchFor(page, 'person', 'Alice Smith');
  // Six candidates on 30 slow fake sites, two requests per host for one member: several seconds.
  await expect(source(page, 'Candidate Usernames')).toContainText('alice.smith');
  await shot(page, 'osint-person');
  await page.getByTestId('candidate-list').getByRole('button', { name: 'alicesmith' }).click();
  await expect(page.getByTestId('osint-query')).toHaveValue('alicesmith');
  await expect(page.getByTestId('summary-type')).toContainText('Username');
  await expect(page.getByTestId('osint-summary')).toContainText('Results for alicesmith');

  // A past search reopens from the history as it was shown.
  await page
    .getByTestId('osint-history')
    .getByRole('button', { name: new RegExp(`^${FAKE.knownUser}\\s*Username`) })
    .click();
  await expect(page.getByTestId('osint-summary')).toContainText(`Results for ${FAKE.knownUser}`);
  await expect(page.getByTestId('summary-platforms')).toContainText('13');
  await expect(page.getByTestId('osint-site-list')).toContainText('40 sites');

  // A refused query is shown as the spec's failed search.
  await searchFor(page, 'domain', '127.0.0.1');
  await expect(source(page, 'Error')).toContainText('Failed');
  await expect(source(page, 'Error')).toContainText(OSINT_TEXTS.searchFailed);

  // Phone width: the failed search and the form.
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, { path: `${SHOTS}/osint-failed-375.png`, fullPage: true });
  await expectNoSeriousA11y(page);
  await shot(page, 'osint-failed');
  await context.close();
});

/**
 * Issue 28, reports: members flag a found site as wrong, an admin sees the site in the panel's OSINT
 * reports (how many members, what they said), disables it with the keyboard, a new scan leaves it out
 * and names it as not scanned, and re-enabling brings it back (so the other OSINT test's counts hold).
 */
test('[user] members report a site, the admin disables it, a new scan does not scan it', async ({
  browser,
}) => {
  // Five username scans of 40 fake sites answering in up to 2 s, and screenshots (E2E_SHOTS).
  const site = 'Twitch'; // fake site 3: alice is found there
  const members = [
    await signedInContext(browser, { access_level: 'user' }),
    await signedInContext(browser, { access_level: 'user' }),
  ];
  for (const { page } of members) {
    await page.goto('/infosec');
    await searchFor(page, 'username', FAKE.knownUser);
    await expect(page.getByTestId('summary-platforms')).toContainText('13');
    await page.getByRole('button', { name: `Report a wrong result on ${site}` }).click();
    await expect(page.getByTestId('platform-list')).toContainText('Reported');
  }

  const admin = await signedInContext(browser, { access_level: 'admin' });
  await admin.page.setViewportSize({ width: 1280, height: 900 });
  await admin.page.goto('/admin');
  // The panel loads its users first (lazily loaded page, several requests): on a loaded machine that
  // can take longer than the default 7 s.
  await expect(admin.page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  const card = admin.page.getByTestId('osint-reports');
  await expect(card).toBeVisible();
  const row = card.locator(`li[data-site="${site}"]`);
  await expect(row).toContainText('2 members (2 open)');
  await expect(row).toContainText('says it is not that account');
  await expect(row).toContainText('Open');
  await card.scrollIntoViewIfNeeded();
  await screenshot(admin.page, { path: `${SHOTS}/admin-osint-reports-1280.png`, fullPage: true });
  await shot(admin.page, 'admin-osint-reports');
  // Keyboard: focus the decision and press Enter.
  await row.getByRole('button', { name: `Disable site ${site}` }).focus();
  await admin.page.keyboard.press('Enter');
  await expect(row).toContainText('Disabled');
  await expect(row).toContainText('A report was accepted by an admin');
  await expect(row.getByRole('button', { name: `Re-enable ${site}` })).toBeVisible();
  await expectNoSeriousA11y(admin.page);
  await shot(admin.page, 'admin-osint-reports-disabled');

  // A new scan leaves the site out and says so.
  const { page } = members[0]!;
  await searchFor(page, 'username', FAKE.knownUser);
  await expect(page.getByTestId('platform-counts')).toHaveText(
    'Found on 12 of 39 sites · not found on 23 · could not check 4',
  );
  await expect(page.getByTestId('platform-disabled')).toHaveText(
    `Not scanned (disabled by admins or the self-check): ${site}`,
  );
  await page.getByTestId('platform-more').click();
  await expect(page.getByTestId('platform-list')).not.toContainText(site);
  await expect(page.getByTestId('osint-site-list')).toContainText('39 sites');
  await shot(page, 'osint-username-disabled');

  // Re-enabled, the site is scanned again.
  await row.getByRole('button', { name: `Re-enable ${site}` }).click();
  await expect(row).toContainText('Dismissed');
  await searchFor(page, 'username', FAKE.knownUser);
  await expect(page.getByTestId('platform-counts')).toHaveText(
    'Found on 13 of 40 sites · not found on 23 · could not check 4',
  );
  for (const c of [...members, admin]) await c.context.close();
});

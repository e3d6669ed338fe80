import { TEXTS } from '@guildhall/common';
import type { Page } from '@playwright/test';
import { expectNoSeriousA11y } from './support/a11y.ts';
import { ACCESS_CODE, BASE_URL } from './support/env.ts';
import { expect, randomDiscordId, setDiscordUser, signedInContext, test } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

// First-run and member journeys of issue 17: each ends somewhere useful, never in a loop or a dead end.

/** Answers /api/config in this page as a server in the given state would (the shared server has Discord on). */
async function serveConfig(page: Page, config: { oauthConfigured: boolean; setupMode: boolean }) {
  await page.route('**/api/config', (route) => route.fulfill({ json: config }));
}

test.describe('journeys', () => {
  test('[viewer] the access-denied page leads Home and says how to get upgraded', async ({ browser }) => {
    const { context, page } = await signedInContext(browser, { access_level: 'viewer' });
    await page.goto('/dashboard');
    const denied = page.getByTestId('access-denied');
    await expect(denied).toContainText('To get upgraded, ask an admin');
    await expect(denied.getByRole('link', { name: 'Back to Dashboard' })).toHaveCount(0);
    await expectNoSeriousA11y(page);
    await shot(page, 'denied-viewer');
    await denied.getByRole('link', { name: 'Home' }).click();
    await expect(page).toHaveURL(`${BASE_URL}/`);
    await expect(page.getByText('Your account has viewer access.')).toBeVisible();
    await context.close();
  });

  test('[setup mode] the access-code identity sees the banner with the next step and one acting level', async ({
    page,
  }) => {
    await serveConfig(page, { oauthConfigured: true, setupMode: true });
    await page.goto('/login');
    await page.getByLabel('Access Code').fill(ACCESS_CODE);
    await page.getByRole('button', { name: 'Access Utilities' }).click();
    await expect(page).toHaveURL(`${BASE_URL}/dashboard`);
    const banner = page.getByRole('region', { name: 'Setup mode' });
    await expect(banner).toContainText('acts as Admin');
    await expect(banner).toContainText('Next step: add your Discord account as an Admin');
    await expect(banner.getByRole('link', { name: 'Open the Admin Panel' })).toHaveAttribute(
      'href',
      '/admin',
    );
    await expectNoSeriousA11y(page);
    await shot(page, 'setup-banner');
  });

  test('[not found] a typo’d address stays inside the layout', async ({ page }) => {
    await page.goto('/filesystm');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expectNoSeriousA11y(page);
    await shot(page, 'not-found');
  });

  test('[login] without Discord configured the button is disabled with a hint for members', async ({
    page,
  }) => {
    await serveConfig(page, { oauthConfigured: false, setupMode: false });
    await page.goto('/login');
    const button = page.getByRole('button', { name: 'Continue with Discord' });
    await expect(button).toBeDisabled();
    await expect(page.getByTestId('discord-off-hint')).toHaveText(/not set up on this portal yet/);
    await expect(page.getByText('environment variables')).toHaveCount(0);
    await expectNoSeriousA11y(page);
    await shot(page, 'login-discord-off');
  });
});

test.describe('page weight on the wire (issue 31)', () => {
  /** Bytes Chromium received for a cold load of `url` (headers and bodies, as encoded), and the encodings. */
  async function coldLoad(page: Page, url: string, ready: () => Promise<unknown>) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    let bytes = 0;
    const encodings = new Map<string, string>();
    cdp.on('Network.loadingFinished', (e) => {
      bytes += e.encodedDataLength;
    });
    cdp.on('Network.responseReceived', (e) => {
      const encoding = Object.entries(e.response.headers).find(
        ([k]) => k.toLowerCase() === 'content-encoding',
      );
      if (e.type === 'Script' || e.type === 'Stylesheet')
        encodings.set(e.response.url, String(encoding?.[1]));
    });
    await page.goto(url);
    await ready();
    await page.waitForLoadState('networkidle');
    return { bytes, encodings };
  }

  test('[signed out] a cold /login moves at most 110 KB, every script and stylesheet brotli-compressed', async ({
    page,
  }) => {
    const load = await coldLoad(page, '/login', () => page.getByLabel('Access Code').waitFor());
    expect(load.bytes / 1024).toBeLessThanOrEqual(110);
    expect([...load.encodings.values()].every((e) => e === 'br')).toBe(true);
  });

  test('[user] a cold /filesystem moves at most 250 KB', async ({ browser }) => {
    const { context, page } = await signedInContext(browser);
    const load = await coldLoad(page, '/filesystem', () => page.getByTestId('files-count').waitFor());
    expect(load.bytes / 1024).toBeLessThanOrEqual(250);
    expect([...load.encodings.values()].every((e) => e === 'br')).toBe(true);
    await context.close();
  });
});

test('[error page] a page file that fails to load keeps the navbar, says why in words, and Reload fixes it', async ({
  browser,
}) => {
  const { context, page } = await signedInContext(browser);
  const missing = /\/assets\/FilesPage-[\w-]+\.js$/;
  await page.route(missing, (route) => route.abort());
  await page.goto('/filesystem');
  const error = page.getByTestId('route-error');
  await expect(error.getByRole('heading', { name: TEXTS.unexpectedApplicationError })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByTestId('route-error-message')).toContainText('Reload to get the current version');
  await expect(page.getByText('Failed to fetch dynamically imported module')).toBeHidden();
  await expectNoSeriousA11y(page);
  await shot(page, 'error-page');
  await page.unroute(missing);
  await error.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('heading', { name: 'Shared File System' })).toBeVisible();
  await context.close();
});

test('[admin] the navbar counts pending accounts; Approve offers the level (screens)', async ({
  browser,
}) => {
  // Discord sign-in, then axe at two widths in both themes over an admin list that grows with the run.
  const id = randomDiscordId();
  const newcomer = await browser.newContext({ baseURL: BASE_URL });
  await setDiscordUser(newcomer, { id, username: `waiting_${id.slice(-6)}` });
  const waiting = await newcomer.newPage();
  await waiting.goto('/login');
  await waiting.getByRole('button', { name: 'Continue with Discord' }).click();
  await expect(waiting.getByRole('heading', { name: 'Your request is waiting for an admin' })).toBeVisible();
  await expectNoSeriousA11y(waiting);
  await shot(waiting, 'pending-callback');
  await newcomer.close();

  const { context, page } = await signedInContext(browser, { access_level: 'admin' });
  await page.goto('/admin');
  await expect(page.getByTestId('nav-pending')).toBeVisible();
  await expect(page.getByLabel(`Level for waiting_${id.slice(-6)}`)).toHaveValue('user');
  await expectNoSeriousA11y(page);
  await shot(page, 'admin-pending');
  await context.close();
});

test('[settings] the theme follows the system and a choice in settings overrides it', async ({ browser }) => {
  const { context, page } = await signedInContext(browser);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/settings');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect(page.getByRole('radio', { name: 'System' })).toBeChecked();
  await page.getByText('Dark', { exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await expectNoSeriousA11y(page);
  await shot(page, 'settings');
  await context.close();
});

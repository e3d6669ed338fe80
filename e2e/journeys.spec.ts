import { gzipSync } from 'node:zlib';
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
    // What the browser really fetches for /login (entry, modulepreloads, anything loaded on mount):
    // gzipped, under 100 KB (issue 17; `npm run build` prints the same figure from the manifest).
    const scripts: Promise<number>[] = [];
    page.on('response', (res) => {
      if (res.request().resourceType() === 'script') scripts.push(res.body().then((b) => gzipSync(b).length));
    });
    await page.goto('/login');
    await page.waitForLoadState('networkidle');
    const loginJs = (await Promise.all(scripts)).reduce((a, b) => a + b, 0);
    expect(loginJs / 1024).toBeLessThan(100);
    const button = page.getByRole('button', { name: 'Continue with Discord' });
    await expect(button).toBeDisabled();
    await expect(page.getByTestId('discord-off-hint')).toHaveText(/not set up on this portal yet/);
    await expect(page.getByText('environment variables')).toHaveCount(0);
    await expectNoSeriousA11y(page);
    await shot(page, 'login-discord-off');
  });
});

test('[admin] the navbar counts pending accounts; Approve offers the level (screens)', async ({
  browser,
}) => {
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

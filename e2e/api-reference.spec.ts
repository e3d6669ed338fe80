import fs from 'node:fs';
import path from 'node:path';
import { deadline } from '../server/src/test/time-scale.ts';
import { AdminPanel } from './support/admin-panel.ts';
import { BASE_URL } from './support/env.ts';
import { expect, signedInContext, test } from './support/fixtures.ts';

const version = (
  JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8')) as {
    version: string;
  }
).version;

test.describe('release and API reference (issue 32)', () => {
  test('[admin] sees the release in the admin panel and browses the API reference, calling it as themselves', async ({
    browser,
  }) => {
    const { context, page } = await signedInContext(browser, { access_level: 'admin' });
    const panel = new AdminPanel(page);
    await panel.open();
    await expect(page.getByTestId('version-line')).toContainText(`Guildhall v${version}`);
    await page.getByRole('link', { name: 'API reference' }).click();
    await expect(page).toHaveURL(`${BASE_URL}/admin/api`);
    await expect(page.getByRole('heading', { name: 'API Reference' })).toBeVisible();
    const reference = page.getByTestId('api-reference');
    // Generated from the server's own document: its routes and its release (Swagger UI loads on this page).
    // One heading per part of the API; the auth part opens to its routes.
    const authPart = reference.locator('.opblock-tag[data-tag="auth"]');
    await expect(authPart).toBeVisible({ timeout: deadline(30_000) });
    await authPart.click();
    const validate = reference.locator('.opblock-summary-path[data-path="/api/auth/validate"]');
    await expect(validate).toBeVisible();
    await expect(reference.locator('.version').first()).toHaveText(version);
    // "Try it out" sends the signed-in admin's token.
    await validate.click();
    await reference.getByRole('button', { name: 'Try it out' }).click();
    await reference.getByRole('button', { name: 'Execute' }).click();
    await expect(reference.locator('.live-responses-table tbody .response-col_status').first()).toHaveText(
      '200',
    );
    await context.close();
  });

  test('[user] is refused the API reference', async ({ browser }) => {
    const { context, page } = await signedInContext(browser, { access_level: 'user' });
    await page.goto(`${BASE_URL}/admin/api`);
    await expect(page.getByTestId('api-reference')).toHaveCount(0);
    await context.close();
  });
});

import { AdminPanel } from './support/admin-panel.ts';
import { expect, signedInContext, test } from './support/fixtures.ts';

/** Issue 15: an admin sets a member's storage quota; the member's files header shows use and quota. */
test('[admin] sets a storage quota in the admin panel; the member sees it in the files header', async ({
  browser,
}) => {
  const member = await signedInContext(browser, { access_level: 'user' });
  const admin = await signedInContext(browser, { access_level: 'admin' });
  const panel = new AdminPanel(admin.page);
  await panel.open();
  await expect(panel.apiStatus).toHaveText('API Online');

  const storage = admin.page.getByTestId('storage-quotas');
  const field = storage.getByLabel(`Quota of ${member.member.username} in MB`);
  await field.fill('5');
  await field.press('Enter');
  const row = storage
    .locator('li')
    .filter({ has: admin.page.getByLabel(`Quota of ${member.member.username} in MB`) });
  await expect(row).toContainText('0 Bytes used of 5 MB (own quota)');

  await member.page.goto('/filesystem');
  await expect(member.page.getByTestId('files-usage')).toHaveText(/You use 0 Bytes of 5 MB/);

  // Back to the default (none here): the member's header drops the quota.
  await row.getByRole('button', { name: 'Default' }).click();
  await expect(row).toContainText('0 Bytes used · no quota');
  await member.page.reload();
  await expect(member.page.getByTestId('files-usage')).toHaveText('You use 0 Bytes');
  await admin.context.close();
  await member.context.close();
});

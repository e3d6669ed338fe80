import { createHash, randomBytes } from 'node:crypto';
import { NOTICE_TEXTS, UPLOAD_REQUEST_TEXTS } from '@guildhall/common';
import { expectNoSeriousA11y } from './support/a11y.ts';
import { BASE_URL } from './support/env.ts';
import { FilesScreen } from './support/files-screen.ts';
import { expect, signedInContext, test } from './support/fixtures.ts';
import { shot, shotOf } from './support/shots.ts';

const MiB = 1024 * 1024;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

test('[signed out] an upload link of 5 MiB: a guest sends 3 MiB (cut off once, resumed), a second 3 MiB is refused; the owner sees the file, a notice, and the quota counts it', async ({
  browser,
}) => {
  const { context, page, member } = await signedInContext(browser, { access_level: 'user' });
  const screen = new FilesScreen(page, member.token);
  const home = await screen.seedFolder(`e2e ${member.username}`);
  const folder = await screen.seedFolder('Tax scans', home.id);

  // The owner makes the link from the folder's menu.
  await screen.open(home.id);
  await screen.menu('Tax scans', 'Request files');
  await screen.dialog.getByTestId('request-new-title').fill('Scans for the tax return');
  await screen.dialog.getByTestId('request-new-note').fill('Please send the PDF scans here.');
  await screen.dialog.getByTestId('request-new-size').fill('5');
  await screen.dialog.getByRole('button', { name: UPLOAD_REQUEST_TEXTS.create }).click();
  const row = screen.dialog.getByTestId('request-row');
  await expect(row).toContainText('Open');
  const url = (await row.locator('code').textContent())!;
  expect(url).toMatch(/\/request\/[A-Za-z0-9_-]{32}$/);
  await expectNoSeriousA11y(page);
  await shotOf(screen.dialog, 'request-files-modal');

  // The guest, signed out: the texts and the room, nothing of the folder.
  const guestContext = await browser.newContext({ baseURL: BASE_URL });
  const guest = await guestContext.newPage();
  // The first body request is cut off mid-way: tus-js-client asks where the server stands and goes on.
  let cut = 0;
  await guest.route('**/api/requests/*/uploads/*', async (route) => {
    if (route.request().method() === 'PATCH' && cut === 0) {
      cut += 1;
      return route.abort('connectionreset');
    }
    return route.continue();
  });
  await guest.goto(url);
  await expect(guest.getByTestId('request-title')).toHaveText('Scans for the tax return');
  await expect(guest.getByTestId('request-owner')).toHaveText(`${member.username} asks you for files`);
  await expect(guest.getByTestId('request-note')).toHaveText('Please send the PDF scans here.');
  await expect(guest.getByTestId('request-room')).toHaveText('5 MB of 5 MB');
  await expect(guest.getByText('Tax scans')).toHaveCount(0);
  await expectNoSeriousA11y(guest);
  await shot(guest, 'request-guest');

  const first = randomBytes(3 * MiB);
  await guest.getByTestId('request-file-input').setInputFiles({
    name: 'scan-1.pdf',
    mimeType: 'application/pdf',
    buffer: first,
  });
  const firstItem = guest.getByTestId('request-item').filter({ hasText: 'scan-1.pdf' });
  await expect(firstItem.getByTestId('request-receipt')).toBeVisible();
  await expect(firstItem.getByTestId('request-sha')).toHaveText(sha256(first));
  expect(cut).toBe(1);
  await expect(guest.getByTestId('request-room')).toHaveText('2 MB of 5 MB');

  await guest.getByTestId('request-file-input').setInputFiles({
    name: 'scan-2.pdf',
    mimeType: 'application/pdf',
    buffer: randomBytes(3 * MiB),
  });
  const secondItem = guest.getByTestId('request-item').filter({ hasText: 'scan-2.pdf' });
  await expect(secondItem.getByTestId('request-refusal')).toHaveText(
    'This upload link takes at most 5 MB in all; 2 MB left',
  );
  await expectNoSeriousA11y(guest);
  await shot(guest, 'request-guest-receipt');
  await guestContext.close();

  // The owner: the file in the folder, a notice in the navbar and on /notices, the quota.
  await screen.open(folder.id);
  await expect(screen.card('scan-1.pdf').or(screen.row('scan-1.pdf'))).toBeVisible();
  await expect(page.getByTestId('nav-notices-count')).toHaveText('1');
  await page.getByTestId('nav-notices').click();
  await expect(page.getByTestId('notice')).toContainText(
    NOTICE_TEXTS.requestReceived('scan-1.pdf', 'Scans for the tax return'),
  );
  await expectNoSeriousA11y(page);
  await shot(page, 'notices');
  await page.getByRole('button', { name: NOTICE_TEXTS.markAllRead }).click();
  await expect(page.getByTestId('nav-notices-count')).toHaveCount(0);
  const usage = await fetch(`${BASE_URL}/api/files/usage`, {
    headers: { authorization: `Bearer ${member.token}` },
  });
  expect(((await usage.json()) as { data: { usedBytes: number } }).data.usedBytes).toBe(3 * MiB);

  // The link's row says what arrived; closing it ends the guest page.
  await screen.open(home.id);
  await screen.menu('Tax scans', 'Request files');
  await expect(screen.dialog.getByTestId('request-row-received')).toContainText(
    '1 of 10 files · 3 MB of 5 MB',
  );
  await screen.dialog.getByRole('button', { name: UPLOAD_REQUEST_TEXTS.close }).click();
  await expect(screen.dialog.getByTestId('request-row')).toContainText('Closed');
  const closed = await (await browser.newContext({ baseURL: BASE_URL })).newPage();
  await closed.goto(url);
  await expect(closed.getByRole('heading', { name: UPLOAD_REQUEST_TEXTS.notFoundTitle })).toBeVisible();
  await shot(closed, 'request-closed');
  await closed.context().close();
  await context.close();
});

test('[user] the settings page offers notices as Discord DMs', async ({ browser }) => {
  const { context, page } = await signedInContext(browser, { access_level: 'user' });
  await page.goto('/settings');
  const box = page.getByTestId('notices-dm');
  await expect(box).not.toBeChecked();
  await box.check();
  await page.reload();
  await expect(page.getByTestId('notices-dm')).toBeChecked();
  await shotOf(
    page.getByRole('heading', { name: NOTICE_TEXTS.title }).locator('xpath=../..'),
    'settings-notices',
  );
  await context.close();
});

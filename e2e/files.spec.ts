import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { FILES_TEXTS, ROOT_FOLDER_LABEL } from '@guildhall/common';
import type { Browser, Download, Page } from '@playwright/test';
import { expectNoSeriousA11y } from './support/a11y.ts';
import { expireShare } from './support/db.ts';
import { BASE_URL } from './support/env.ts';
import { FilesScreen } from './support/files-screen.ts';
import { expect, signedInContext, test } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const bytesOf = async (download: Download) => fs.readFileSync((await download.path())!);

/** A signed-in member on a folder of their own (tests run in parallel on one server). */
async function member(browser: Browser, level: 'user' | 'viewer' = 'user') {
  const { context, page, member: m } = await signedInContext(browser, { access_level: level });
  const screen = new FilesScreen(page, m.token);
  const home = await screen.seedFolder(`e2e ${m.username}`);
  return { context, page, screen, home, username: m.username };
}

async function signedOutPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE_URL, acceptDownloads: true });
  return context.newPage();
}

test('[user] uploads two files through the UI and sees the progress cards, then the listing', async ({
  browser,
}) => {
  const { context, screen, home, username } = await member(browser);
  await screen.open(home.id);
  await expect(screen.emptyState).toBeVisible();
  await expect(screen.page.getByRole('button', { name: FILES_TEXTS.uploadFiles })).toBeVisible();

  const big = randomBytes(12 * 1024 * 1024); // two chunks
  await screen.uploadInput.setInputFiles([
    { name: 'raid-plan.txt', mimeType: 'text/plain', buffer: Buffer.from('pull at 8, bring pots') },
    { name: 'recording.bin', mimeType: 'application/octet-stream', buffer: big },
  ]);
  await expect(screen.uploadCard('raid-plan.txt')).toBeVisible();
  await expect(screen.uploadCard('recording.bin')).toBeVisible();
  await expect(screen.uploadCard('recording.bin')).toHaveAttribute('data-state', 'completed');
  await expect(screen.uploadCard('raid-plan.txt')).toContainText('Upload complete');
  await expect(screen.uploadCard('raid-plan.txt')).toContainText('100%');

  // The list refreshes 1.5 s after completion; the cards leave 3 s after it.
  await expect(screen.card('raid-plan.txt')).toBeVisible();
  await expect(screen.card('recording.bin')).toContainText('12 MB');
  // The owner is the uploader (issue 30), on the card as in its tooltip.
  await expect(screen.card('recording.bin')).toContainText(username);
  await expect(screen.card('recording.bin')).toContainText('read-write');
  await expect(screen.page.getByTestId('upload-card')).toHaveCount(0);
  await expectNoSeriousA11y(screen.page);
  await shot(screen.page, 'files-grid');
  await context.close();
});

test('[user] drops files onto the page to upload them', async ({ browser }) => {
  const { context, page, screen, home } = await member(browser);
  await screen.open(home.id);
  const dataTransfer = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['dropped bytes'], 'dropped.txt', { type: 'text/plain' }));
    return dt;
  });
  await page.dispatchEvent('body', 'dragenter', { dataTransfer });
  await expect(page.getByText('Drop files to upload')).toBeVisible();
  await page.dispatchEvent('body', 'drop', { dataTransfer });
  await expect(screen.card('dropped.txt')).toBeVisible();
  await context.close();
});

test('[user] creates nested folders and navigates back by breadcrumb', async ({ browser }) => {
  const { context, page, screen, home } = await member(browser);
  await screen.open(home.id);

  await page.getByRole('button', { name: 'New Folder' }).click();
  await expect(screen.dialog.getByRole('heading', { name: FILES_TEXTS.createNewFolder })).toBeVisible();
  // A modal dialog: focus starts in its field, Tab cannot leave it, Escape closes it and focus returns.
  await expect(screen.dialog.getByRole('textbox')).toBeFocused();
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    expect(await screen.dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(screen.dialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New Folder' })).toBeFocused();
  await page.getByRole('button', { name: 'New Folder' }).click();
  await screen.dialog.getByRole('textbox').press('Enter');
  await expect(screen.dialog.getByRole('alert')).toHaveText(FILES_TEXTS.folderNameRequired);
  await screen.dialog.getByRole('textbox').fill('Campaigns');
  await screen.dialog.getByRole('textbox').press('Enter'); // Enter submits
  await expect(screen.dialog).toHaveCount(0);

  await screen.openFolderCard('Campaigns');
  await expect(screen.crumb('Campaigns')).toBeVisible();
  await screen.newFolder('Season 2 🐉');
  await screen.openFolderCard('Season 2 🐉');
  await expect(screen.breadcrumb).toContainText(ROOT_FOLDER_LABEL);
  await expect(screen.breadcrumb).toContainText('Campaigns');
  await expect(screen.breadcrumb).toContainText('Season 2 🐉');
  await expect(screen.emptyState).toBeVisible();

  await screen.crumb('Campaigns').click();
  await expect(screen.card('Season 2 🐉')).toBeVisible();
  await screen.crumb(ROOT_FOLDER_LABEL).click();
  await expect(screen.breadcrumb).not.toContainText('Campaigns');
  await context.close();
});

test('[user] filters by name, renames a file, and can share folders too', async ({ browser }) => {
  const { context, page, screen, home } = await member(browser);
  await screen.seedFile('Alpha Notes.txt', Buffer.from('a'), home.id);
  await screen.seedFile('beta.txt', Buffer.from('b'), home.id);
  await screen.seedFolder('Gamma', home.id);
  await screen.open(home.id);

  await screen.filter.fill('ALPHA');
  await expect.poll(() => screen.names()).toEqual(['Alpha Notes.txt']);
  await screen.filter.fill('zzz');
  await expect(screen.emptyState).toBeVisible();
  await expect(page.getByRole('button', { name: FILES_TEXTS.uploadFiles })).toHaveCount(0);
  await screen.filter.fill('');
  await expect.poll(() => screen.names()).toEqual(['Gamma', 'Alpha Notes.txt', 'beta.txt']);

  await screen.menu('beta.txt', 'Rename');
  const input = screen.dialog.getByRole('textbox');
  await input.fill('Beta – final.txt');
  await input.press('Enter');
  await expect(screen.card('Beta – final.txt')).toBeVisible();
  await expect(screen.card('beta.txt')).toHaveCount(0);

  await screen.listView();
  await expect(page.getByRole('columnheader')).toHaveText([
    '',
    'Name',
    'Owner',
    'Size',
    'Modified',
    'Permissions',
    'Actions',
  ]);
  const share = screen.row('Gamma').getByRole('button', { name: 'Share Gamma' });
  // Folders are shared like files (issue 45, folder-share.spec.ts).
  await expect(share).toBeEnabled();
  await context.close();
});

test('[user] downloads a file and gets exactly the uploaded bytes', async ({ browser }) => {
  const { context, page, screen, home } = await member(browser);
  const content = randomBytes(9 * 1024 * 1024 + 17);
  await screen.seedFile('Ünïcødé report.bin', content, home.id);
  await screen.open(home.id);
  await screen.listView();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    screen.row('Ünïcødé report.bin').getByRole('button', { name: 'Download Ünïcødé report.bin' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('Ünïcødé report.bin');
  expect(sha(await bytesOf(download))).toBe(sha(content));
  await expect(page.getByTestId('download-card')).toBeVisible();
  await context.close();
});

test('[user] shares a file publicly; a signed-out browser opens the link and downloads it', async ({
  browser,
}) => {
  const { context, page, screen, home } = await member(browser);
  const content = Buffer.from('the public bytes');
  await screen.seedFile('public.txt', content, home.id);
  await screen.seedFile('other.txt', Buffer.from('x'), home.id);
  await screen.open(home.id);

  await screen.select('public.txt');
  await screen.select('other.txt');
  await page.getByTestId('selection-bar').getByRole('button', { name: 'Share' }).click();
  await expect(page.getByText(FILES_TEXTS.selectOnlyOneFile)).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select other.txt' }).uncheck();

  await page.getByTestId('selection-bar').getByRole('button', { name: 'Share' }).click();
  await expect(screen.dialog.getByRole('tab', { name: 'Existing Shares (0)' })).toBeVisible();
  await screen.dialog.getByText('Anyone with the link').click();
  await screen.dialog.getByRole('button', { name: 'Create Share Link' }).click();
  await expect(screen.dialog.getByRole('tab', { name: 'Existing Shares (1)' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  const url = (await screen.dialog.getByTestId('share-row').locator('code').textContent())!;
  expect(url).toMatch(/\/shared\/[A-Za-z0-9_-]{32}$/);

  const visitor = await signedOutPage(browser);
  await visitor.goto(url);
  await expect(visitor.getByTestId('shared-name')).toHaveText('public.txt');
  await expect(visitor.getByTestId('shared-size')).toHaveText('16 Bytes');
  await expect(visitor.getByTestId('shared-downloads')).toHaveText('0');
  await expectNoSeriousA11y(visitor);
  await shot(visitor, 'shared-link');
  const [download] = await Promise.all([
    visitor.waitForEvent('download'),
    visitor.getByRole('button', { name: 'Download' }).click(),
  ]);
  await expect(visitor.getByText(FILES_TEXTS.downloadStarted)).toBeVisible();
  expect((await bytesOf(download)).equals(content)).toBe(true);
  await expect(visitor.getByTestId('shared-downloads')).toHaveText('1');
  await visitor.context().close();
  await context.close();
});

test('[signed out] a user share shows Login Required; revoked and expired shares show File Not Found', async ({
  browser,
}) => {
  const { context, screen, home } = await member(browser);
  const file = await screen.seedFile('members-only.txt', Buffer.from('m'), home.id);
  const userShare = await screen.seedShare(file.id, 'user');
  const revoked = await screen.seedShare(file.id, 'public');
  const expiring = await screen.seedShare(file.id, 'public', new Date(Date.now() + 3_600_000).toISOString());
  await expireShare(expiring.id); // seeded expired: no waiting for the clock

  const visitor = await signedOutPage(browser);
  await visitor.goto(`/shared/${userShare.token}`);
  await expect(visitor.getByRole('heading', { name: FILES_TEXTS.loginRequired })).toBeVisible();
  await expect(visitor.getByText(FILES_TEXTS.loginRequiredBody)).toBeVisible();
  // Sign-in comes back to this link afterwards (issue 31).
  await expect(visitor.getByRole('link', { name: 'Log in' })).toHaveAttribute(
    'href',
    `/login?next=${encodeURIComponent(`/shared/${userShare.token}`)}`,
  );

  // Revoke through the Share File modal's Existing Shares tab.
  await screen.open(home.id);
  await screen.menu('members-only.txt', 'Share');
  await screen.dialog.getByRole('tab', { name: /Existing Shares \(3\)/ }).click();
  const row = screen.dialog.getByTestId('share-row').filter({ hasText: revoked.token });
  await row.getByRole('button', { name: 'Delete share' }).click();
  await expect(screen.dialog.getByRole('tab', { name: 'Existing Shares (2)' })).toBeVisible();

  await visitor.goto(`/shared/${revoked.token}`);
  await expect(visitor.getByRole('heading', { name: FILES_TEXTS.fileNotFound })).toBeVisible();
  await expect(visitor.getByText(FILES_TEXTS.fileNotFoundBody)).toBeVisible();
  await expectNoSeriousA11y(visitor);
  await shot(visitor, 'shared-not-found');

  await visitor.goto(`/shared/${expiring.token}`);
  await expect(visitor.getByRole('heading', { name: FILES_TEXTS.fileNotFound })).toBeVisible();
  // The owner's list marks it Expired.
  await screen.open(home.id);
  await screen.menu('members-only.txt', 'Share');
  await screen.dialog.getByRole('tab', { name: /Existing Shares/ }).click();
  await expect(screen.dialog.getByTestId('share-row').filter({ hasText: expiring.token })).toContainText(
    FILES_TEXTS.expired,
  );
  await visitor.context().close();
  await context.close();
});

test('[user] bulk-deletes selected files one after another and reports it', async ({ browser }) => {
  const { context, page, screen, home } = await member(browser);
  for (const name of ['one.txt', 'two.txt', 'three.txt', 'keep.txt'])
    await screen.seedFile(name, Buffer.from(name), home.id);
  await screen.open(home.id);
  for (const name of ['one.txt', 'two.txt', 'three.txt']) await screen.select(name);
  await expect(page.getByTestId('selection-bar')).toContainText('3 selected');
  await page.getByTestId('selection-bar').getByRole('button', { name: 'Delete' }).click();
  await expect(screen.dialog).toContainText('Delete these 3 files?');
  await screen.dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Deleted 3 item(s)')).toBeVisible();
  await expect.poll(() => screen.names()).toEqual(['keep.txt']);
  await context.close();
});

test('[user] deleting a folder asks first, naming how many items are inside', async ({ browser }) => {
  const { context, page, screen, home } = await member(browser);
  const doomed = await screen.seedFolder('Old raids', home.id);
  const inner = await screen.seedFolder('2019', doomed.id);
  await screen.seedFile('a.txt', Buffer.from('a'), doomed.id);
  await screen.seedFile('b.txt', Buffer.from('b'), inner.id);
  await screen.open(home.id);
  await screen.menu('Old raids', 'Delete Folder');
  await expect(screen.dialog).toContainText('and the 3 item(s) inside it');
  await screen.dialog.getByRole('button', { name: 'Delete Folder' }).click();
  await expect(screen.card('Old raids')).toHaveCount(0);
  await expect(page.getByText('Deleted Old raids')).toBeVisible();
  await context.close();
});

test('[viewer] can browse but not upload or create folders', async ({ browser }) => {
  const viewer = await signedInContext(browser, { access_level: 'viewer' });
  const screen = new FilesScreen(viewer.page, viewer.member.token);
  await screen.open();
  await expect(viewer.page.getByRole('button', { name: 'Upload', exact: true })).toBeDisabled();
  await expect(viewer.page.getByRole('button', { name: 'New Folder' })).toBeDisabled();
  await viewer.context.close();
});

test('[user] a failed load shows "Failed to load files" with Retry, and Retry loads the list', async ({
  browser,
}) => {
  const { context, page, screen, home } = await member(browser);
  await screen.seedFile('after-retry.txt', Buffer.from('r'), home.id);
  let isFailing = true;
  await page.route('**/api/files?folderId=*', (route) =>
    isFailing
      ? route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: '{"success":false,"error":"Service unavailable"}',
        })
      : route.continue(),
  );
  await screen.open(home.id);
  const alert = page.getByRole('alert').filter({ hasText: FILES_TEXTS.loadFilesFailed });
  // A friendly line instead of the server's raw text, and the file count does not stay at "…".
  await expect(alert).toContainText('The server could not answer just now.');
  await expect(alert).not.toContainText('Service unavailable');
  await expect(page.getByTestId('files-count')).toHaveText('Storage figures unavailable');
  // Said once, inline: no toast repeats it.
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
  isFailing = false;
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(screen.card('after-retry.txt')).toBeVisible();
  await context.close();
});

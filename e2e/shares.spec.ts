import fs from 'node:fs';
import { FILE_MANAGER_TEXTS, FILES_TEXTS, SHARE_LINK_TEXTS } from '@guildhall/common';
import type { Browser, Page } from '@playwright/test';
import { expectNoSeriousA11y } from './support/a11y.ts';
import { expireShare } from './support/db.ts';
import { ACCESS_CODE, BASE_URL } from './support/env.ts';
import { FilesScreen } from './support/files-screen.ts';
import { expect, signedInContext, test } from './support/fixtures.ts';
import { shot, shotOf } from './support/shots.ts';

/** Editable shares, download limits, the sign-in journey from a share, API tokens (issue 45). */

async function member(browser: Browser) {
  const { context, page, member: m } = await signedInContext(browser, { access_level: 'user' });
  const screen = new FilesScreen(page, m.token);
  const home = await screen.seedFolder(`e2e ${m.username}`);
  return { context, page, screen, home, token: m.token };
}

async function signedOutPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE_URL, acceptDownloads: true });
  return context.newPage();
}

async function api<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

type SeededShare = { id: string; token: string; url: string };
const seedShare = async (token: string, fileId: string, body: Record<string, unknown>) =>
  (await api<{ data: SeededShare }>(token, 'POST', `/api/files/${fileId}/share`, body)).data;

test("[user] edits a share's expiry and password; a signed-out visitor then needs the new password", async ({
  browser,
}) => {
  const { context, page, screen, home, token } = await member(browser);
  const file = await screen.seedFile('secret.txt', Buffer.from('for your eyes'), home.id);
  const share = await seedShare(token, file.id, { accessLevel: 'public', password: 'old-pass' });

  await screen.open(home.id);
  await screen.menu('secret.txt', 'Share');
  await screen.dialog.getByRole('tab', { name: /Existing Shares \(1\)/ }).click();
  await screen.dialog.getByRole('button', { name: SHARE_LINK_TEXTS.editShare }).click();
  const form = screen.dialog.getByTestId('share-edit-form');
  await form.getByTestId('edit-expiry').fill('2099-12-31T23:30');
  await form.getByTestId('edit-title').fill('The plans');
  await form.getByText('Change the password').click();
  await form.getByTestId('edit-password').fill('new-pass');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(SHARE_LINK_TEXTS.shareUpdated)).toBeVisible();
  const row = screen.dialog.getByTestId('share-row');
  await expect(row).toContainText('The plans');
  await expect(row).toContainText('2099');
  await expect(row.getByTestId('share-state')).toHaveAttribute('data-state', 'active');

  const visitor = await signedOutPage(browser);
  await visitor.goto(`/shared/${share.token}`);
  await visitor.getByTestId('shared-password').fill('old-pass');
  await visitor.getByRole('button', { name: FILE_MANAGER_TEXTS.unlock }).click();
  await expect(visitor.getByText(FILE_MANAGER_TEXTS.passwordWrong)).toBeVisible();
  await visitor.getByTestId('shared-password').fill('new-pass');
  await visitor.getByRole('button', { name: FILE_MANAGER_TEXTS.unlock }).click();
  await expect(visitor.getByTestId('shared-name')).toHaveText('secret.txt');
  await expect(visitor.getByTestId('shared-title')).toHaveText('The plans');
  await visitor.context().close();
  await context.close();
});

test("[user] Existing Shares shows each link's state and downloads; an expired link's title can be edited", async ({
  browser,
}) => {
  const { context, page, screen, home, token } = await member(browser);
  const name = 'quarterly report with a rather long name.pdf';
  const file = await screen.seedFile(name, Buffer.from('%PDF'), home.id);
  const longTitle = 'Quarterly numbers for the whole guild, final version, please do not forward';
  const active = await seedShare(token, file.id, {
    accessLevel: 'public',
    title: longTitle,
    maxDownloads: 5,
  });
  const used = await seedShare(token, file.id, { accessLevel: 'public', maxDownloads: 1 });
  expect((await fetch(`${BASE_URL}/api/files/shared/${used.token}/download`)).status).toBe(200);
  const old = await seedShare(token, file.id, { accessLevel: 'user', password: 'old-pass' });
  await expireShare(old.id);

  await page.setViewportSize({ width: 375, height: 800 });
  await screen.open(home.id);
  await screen.menu(name, 'Share');
  await screen.dialog.getByRole('tab', { name: /Existing Shares \(3\)/ }).click();
  const rowOf = (share: SeededShare) =>
    screen.dialog.getByTestId('share-row').filter({ has: page.locator(`[data-edit-share="${share.id}"]`) });
  await expect(rowOf(active).getByTestId('share-state')).toHaveAttribute('data-state', 'active');
  await expect(rowOf(active).getByTestId('share-downloads')).toHaveText('0 / 5 downloads');
  await expect(rowOf(used).getByTestId('share-state')).toHaveAttribute('data-state', 'limit_reached');
  await expect(rowOf(used).getByTestId('share-downloads')).toHaveText('1 / 1 downloads');
  await expect(rowOf(old).getByTestId('share-state')).toHaveAttribute('data-state', 'expired');
  await expect(rowOf(old).getByTestId('share-expiry')).toContainText('Expired ');
  await expect(rowOf(old).getByTestId('share-downloads')).toHaveText('0 downloads');
  // On a phone the listed link shows its token (what tells links apart), not only the origin.
  await expect(rowOf(active).locator('code')).toHaveAttribute('title', active.url);
  await expect(rowOf(active).locator('code')).toBeInViewport();
  await expect(rowOf(active).locator('code > span')).toBeHidden();
  await expectNoSeriousA11y(page);
  await shotOf(screen.dialog, 'shares-existing');

  // The edit form opens in place with focus on it; its date is in the past, yet the title saves.
  await rowOf(old).getByRole('button', { name: SHARE_LINK_TEXTS.editShare }).click();
  const form = screen.dialog.getByTestId('share-edit-form');
  await expect(form.getByRole('heading', { name: SHARE_LINK_TEXTS.editShare })).toBeFocused();
  await expect(form.getByLabel('Download limit')).toHaveAccessibleDescription(/^Downloaded 0 times so far\./);
  await shotOf(screen.dialog, 'shares-edit');
  await form.getByRole('button', { name: 'Save changes' }).scrollIntoViewIfNeeded();
  await shotOf(screen.dialog, 'shares-edit-bottom');
  await form.getByLabel('Title (shown on the shared page)').fill('Old plans');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(SHARE_LINK_TEXTS.shareUpdated)).toBeVisible();
  await expect(rowOf(old)).toContainText('Old plans');
  await expect(rowOf(old).getByTestId('share-state')).toHaveAttribute('data-state', 'expired');
  await expect(rowOf(old).getByRole('button', { name: SHARE_LINK_TEXTS.editShare })).toBeFocused();

  // "Make permanent" clears the expiry: the link is live again. Cancel hands focus back too.
  await rowOf(old).getByRole('button', { name: SHARE_LINK_TEXTS.editShare }).click();
  await form.getByRole('button', { name: 'Make permanent' }).click();
  await expect(form.getByTestId('edit-expiry')).toHaveValue('');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(rowOf(old).getByTestId('share-state')).toHaveAttribute('data-state', 'active');
  await expect(rowOf(old).getByTestId('share-expiry')).toHaveText('Never expires');
  await rowOf(used).getByRole('button', { name: SHARE_LINK_TEXTS.editShare }).click();
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(rowOf(used).getByRole('button', { name: SHARE_LINK_TEXTS.editShare })).toBeFocused();
  await context.close();
});

test('[signed out] a link limited to 2 downloads serves two, then says the limit is reached; HEAD and a link preview do not count', async ({
  browser,
}) => {
  const { context, screen, home, token } = await member(browser);
  const content = Buffer.from('only twice');
  const file = await screen.seedFile('twice.txt', content, home.id);
  const note =
    'Two copies only.\nMirror: https://example.com/releases/2024/guildhall-build-artifacts-final-v2';
  const share = await seedShare(token, file.id, {
    accessLevel: 'public',
    maxDownloads: 2,
    title: 'Build for testers',
    note,
  });

  const visitor = await signedOutPage(browser);
  const downloadUrl = `/api/files/shared/${share.token}/download`;
  expect((await visitor.request.head(downloadUrl)).status()).toBe(200);
  const preview = await visitor.request.get(downloadUrl, {
    headers: { 'user-agent': 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)' },
  });
  expect(preview.status()).toBe(403);

  await visitor.goto(`/shared/${share.token}`);
  await expect(visitor.getByTestId('shared-downloads')).toHaveText(
    `0 · ${SHARE_LINK_TEXTS.downloadsLeft(2)}`,
  );
  await expect(visitor.getByTestId('shared-title')).toHaveText('Build for testers');
  await expect(visitor.getByTestId('shared-note')).toHaveText(note);
  // A long address in the note wraps inside its box on a phone.
  await visitor.setViewportSize({ width: 375, height: 800 });
  expect(await visitor.getByTestId('shared-note').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(
    true,
  );
  await expectNoSeriousA11y(visitor);
  await shot(visitor, 'shared-limited');
  for (const left of [1, 0]) {
    const [download] = await Promise.all([
      visitor.waitForEvent('download'),
      visitor.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(fs.readFileSync((await download.path())!).equals(content)).toBe(true);
    if (left > 0) {
      await expect(visitor.getByTestId('shared-downloads')).toHaveText(
        `${2 - left} · ${SHARE_LINK_TEXTS.downloadsLeft(left)}`,
      );
    }
  }
  // After the second download the page reloads its details and the link says it is used up.
  await expect(visitor.getByRole('heading', { name: SHARE_LINK_TEXTS.limitReachedTitle })).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByTestId('shared-limit-reached')).toContainText(SHARE_LINK_TEXTS.limitReached);
  await expect(visitor.getByRole('link', { name: 'Go to Guildhall' })).toBeVisible();
  await shot(visitor, 'shared-limit-reached');

  // The owner's list shows the state and the count.
  await screen.open(home.id);
  await screen.menu('twice.txt', 'Share');
  await screen.dialog.getByRole('tab', { name: /Existing Shares/ }).click();
  const row = screen.dialog.getByTestId('share-row');
  await expect(row.getByTestId('share-state')).toHaveAttribute('data-state', 'limit_reached');
  await expect(row.getByTestId('share-downloads')).toHaveText('2 / 2 downloads');
  await visitor.context().close();
  await context.close();
});

test('[signed out] on a users-only share, the navbar Login link signs in and lands back on the share', async ({
  browser,
}) => {
  const { context, screen, home, token } = await member(browser);
  const file = await screen.seedFile('members.txt', Buffer.from('m'), home.id);
  const share = await seedShare(token, file.id, { accessLevel: 'user' });
  const visitor = await signedOutPage(browser);
  await visitor.goto(`/shared/${share.token}`);
  await expect(visitor.getByRole('heading', { name: FILES_TEXTS.loginRequired })).toBeVisible();
  await visitor.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }).click();
  await expect(visitor).toHaveURL(`${BASE_URL}/login?next=${encodeURIComponent(`/shared/${share.token}`)}`);
  await visitor.getByLabel('Access Code').fill(ACCESS_CODE);
  await visitor.getByRole('button', { name: 'Access Utilities' }).click();
  await expect(visitor).toHaveURL(`${BASE_URL}/shared/${share.token}`);
  await expect(visitor.getByTestId('shared-name')).toHaveText('members.txt');
  await visitor.context().close();
  await context.close();
});

test('[user] creates an API token in settings, uploads with it, then revokes it', async ({ browser }) => {
  const { context, page } = await member(browser);
  await page.goto('/settings');
  const card = page.getByTestId('api-tokens');
  await expect(card.getByText('No API tokens yet.')).toBeVisible();
  await shotOf(card, 'tokens-empty');
  await card.getByTestId('token-name').fill('e2e script');
  // The scopes come before the button in tab order (chosen first, then Create).
  await card.getByRole('group', { name: 'Scopes' }).getByRole('checkbox').last().focus();
  await page.keyboard.press('Tab');
  await expect(card.getByRole('button', { name: 'Create token' })).toBeFocused();
  await page.keyboard.press('Enter');
  const token = (await card.getByTestId('new-token').textContent())!;
  expect(token).toMatch(/^gh_/);
  // Shown once, so shown whole on a phone: wrapped, never cut off or scrolled sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  for (const id of ['new-token', 'curl-example']) {
    const box = card.getByTestId(id);
    expect(await box.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await expectNoSeriousA11y(page);
  await shotOf(card, 'tokens-new');
  await expect(card.getByTestId('curl-example')).toContainText(`Authorization: Bearer ${token}`);
  const [sxcu] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: 'ShareX configuration (.sxcu)' }).click(),
  ]);
  const config = JSON.parse(fs.readFileSync((await sxcu.path())!, 'utf8'));
  expect(config).toMatchObject({
    RequestURL: `${BASE_URL}/api/upload`,
    FileFormName: 'file',
    URL: '{json:url}',
  });

  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(Buffer.from('from a script'))]), 'script.txt');
  const res = await fetch(`${BASE_URL}/api/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBe(201);
  const { url } = (await res.json()) as { url: string };
  const back = await fetch(`${BASE_URL}/api/files/shared/${url.split('/shared/')[1]}/download`);
  expect(await back.text()).toBe('from a script');

  await card.getByRole('button', { name: 'Done' }).click();
  await page.reload();
  const row = page.getByTestId('token-row').filter({ hasText: 'e2e script' });
  await expect(row.getByTestId('token-last-used')).not.toHaveText('Last used Never');
  await expect(row.getByTestId('token-scopes')).toHaveText('upload');
  await shotOf(card, 'tokens-list');
  await row.getByRole('button', { name: 'Revoke e2e script' }).click();
  await expect(page.getByTestId('token-row').filter({ hasText: 'e2e script' })).toHaveCount(0);
  const again = await fetch(`${BASE_URL}/api/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(again.status).toBe(401);
  await context.close();
});

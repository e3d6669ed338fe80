import fs from 'node:fs';
import { FILE_MANAGER_TEXTS, FILES_TEXTS, SHARE_LINK_TEXTS } from '@guildhall/common';
import type { Browser, Page } from '@playwright/test';
import { ACCESS_CODE, BASE_URL } from './support/env.ts';
import { FilesScreen } from './support/files-screen.ts';
import { expect, signedInContext, test } from './support/fixtures.ts';

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

test('[signed out] a link limited to 2 downloads serves two, then says the limit is reached; HEAD and a link preview do not count', async ({
  browser,
}) => {
  const { context, screen, home, token } = await member(browser);
  const content = Buffer.from('only twice');
  const file = await screen.seedFile('twice.txt', content, home.id);
  const share = await seedShare(token, file.id, { accessLevel: 'public', maxDownloads: 2 });

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

  // The owner's list shows the state and the count.
  await screen.open(home.id);
  await screen.menu('twice.txt', 'Share');
  await screen.dialog.getByRole('tab', { name: /Existing Shares/ }).click();
  const row = screen.dialog.getByTestId('share-row');
  await expect(row.getByTestId('share-state')).toHaveAttribute('data-state', 'limit_reached');
  await expect(row.getByTestId('share-downloads')).toHaveText('2 / 2');
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
  await card.getByTestId('token-name').fill('e2e script');
  await card.getByRole('button', { name: 'Create token' }).click();
  const token = (await card.getByTestId('new-token').textContent())!;
  expect(token).toMatch(/^gh_/);
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

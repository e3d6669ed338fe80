import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { FILES_TEXTS } from '@guildhall/common';
import { expectNoSeriousA11y } from './support/a11y.ts';
import { BASE_URL } from './support/env.ts';
import { FilesScreen } from './support/files-screen.ts';
import { expect, signedInContext, test } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

// A valid 1×1 PNG: enough for the server to make a thumbnail of it.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

test('[signed out] a folder share with three files lists them, shows the picture and downloads a sound ZIP', async ({
  browser,
}) => {
  const { context, page, member } = await signedInContext(browser, { access_level: 'user' });
  const screen = new FilesScreen(page, member.token);
  const home = await screen.seedFolder(`e2e ${member.username}`);
  const folder = await screen.seedFolder('Trip', home.id);
  await screen.seedFile('photo.png', PNG, folder.id);
  await screen.seedFile('notes.txt', Buffer.from('bring snacks\n'), folder.id);
  await screen.seedFile('track.bin', randomBytes(70_000), folder.id);

  // The Share dialog offers folders: the row's Share button.
  await screen.open(home.id);
  await screen.listView();
  await screen.row('Trip').getByRole('button', { name: 'Share Trip' }).click();
  await screen.dialog.getByText('Anyone with the link').click();
  await screen.dialog.getByRole('button', { name: 'Create Share Link' }).click();
  const url = (await screen.dialog.getByTestId('share-row').locator('code').textContent())!;
  expect(url).toMatch(/\/shared\/[A-Za-z0-9_-]{32}$/);

  const visitorContext = await browser.newContext({
    baseURL: BASE_URL,
    acceptDownloads: true,
    viewport: { width: 375, height: 800 },
  });
  const visitor = await visitorContext.newPage();
  await visitor.goto(url);
  await expect(visitor.getByTestId('shared-name')).toHaveText('Trip');
  await expect(visitor.getByTestId('shared-folder-file')).toHaveText([
    /notes\.txt/,
    /photo\.png/,
    /track\.bin/,
  ]);
  await expect(
    visitor.getByTestId('shared-folder-file').filter({ hasText: 'photo.png' }).getByTestId('thumbnail'),
  ).toBeVisible();
  await expectNoSeriousA11y(visitor);
  await shot(visitor, 'shared-folder');

  const [zip] = await Promise.all([
    visitor.waitForEvent('download'),
    visitor.getByRole('button', { name: 'Download all as ZIP' }).click(),
  ]);
  await expect(visitor.getByText(FILES_TEXTS.downloadStarted).first()).toBeVisible();
  const zipPath = (await zip.path())!;
  expect(execFileSync('unzip', ['-t', zipPath], { encoding: 'utf8' })).toContain('No errors detected');
  expect(execFileSync('zipinfo', ['-1', zipPath], { encoding: 'utf8' }).trim().split('\n').sort()).toEqual([
    'notes.txt',
    'photo.png',
    'track.bin',
  ]);

  const [one] = await Promise.all([
    visitor.waitForEvent('download'),
    visitor.getByRole('button', { name: 'Download notes.txt' }).click(),
  ]);
  expect(fs.readFileSync((await one.path())!).toString()).toBe('bring snacks\n');
  await visitorContext.close();
  await context.close();
});

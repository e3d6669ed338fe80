import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FILE_MANAGER_TEXTS, ROOT_FOLDER_LABEL } from '@guildhall/common';
import type { Browser, Page } from '@playwright/test';
import sharp from 'sharp';
import { BASE_URL } from './support/env.ts';
import { FilesScreen } from './support/files-screen.ts';
import { expect, signedInContext, test } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

/** Issue 30: thumbnails, previews, the shared-link preview, search, move, trash, ZIP and password shares. */

async function member(browser: Browser, level: 'user' | 'admin' = 'user') {
  const { context, page, member: m } = await signedInContext(browser, { access_level: level });
  const screen = new FilesScreen(page, m.token);
  const home = await screen.seedFolder(`fm ${m.username}`);
  return { context, page, screen, home, member: m };
}

const png = (width: number, height: number, r: number, g: number, b: number) =>
  sharp({ create: { width, height, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

/** A 10-second VP8 WebM (every Chromium build plays it), made by ffmpeg. */
function webm(): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fm-video-'));
  const file = path.join(dir, 'clip.webm');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x180:rate=15:duration=10',
    '-c:v',
    'libvpx',
    '-b:v',
    '300k',
    '-g',
    '15',
    file,
  ]);
  const bytes = fs.readFileSync(file);
  fs.rmSync(dir, { recursive: true, force: true });
  return bytes;
}

const imageLoaded = (page: Page, selector: string) =>
  expect
    .poll(() =>
      page
        .locator(selector)
        .first()
        .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
    )
    .toBeGreaterThan(0);

test('[user] an uploaded PNG shows its thumbnail in the grid and opens in the preview; arrow keys move between files', async ({
  browser,
}) => {
  const { context, page, screen, home } = await member(browser);
  await screen.open(home.id);
  await screen.uploadInput.setInputFiles([
    { name: 'red.png', mimeType: 'image/png', buffer: await png(800, 600, 220, 40, 40) },
  ]);
  await screen.seedFile('blue.png', await png(640, 480, 40, 40, 220), home.id);
  await screen.seedFile('notes.txt', Buffer.from('line one\nline two'), home.id);
  await expect(screen.card('red.png')).toBeVisible();
  await page.reload();
  await expect(screen.card('red.png').getByTestId('thumbnail')).toBeVisible();
  await imageLoaded(page, '[data-testid=file-card][data-name="red.png"] [data-testid=thumbnail]');

  await screen.card('red.png').getByRole('button', { name: 'red.png' }).first().dblclick();
  const preview = page.getByTestId('preview');
  await expect(preview).toBeVisible();
  await expect(page.getByTestId('preview-name')).toHaveText('red.png');
  await imageLoaded(page, '[data-testid=preview-image]');
  await shot(page, 'files-preview-image');

  await page.keyboard.press('ArrowRight'); // files in the listing's order: blue.png, notes.txt, red.png
  await expect(page.getByTestId('preview-name')).toHaveText('blue.png');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('preview-name')).toHaveText('red.png');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('preview-name')).toHaveText('notes.txt');
  await expect(page.getByTestId('preview-text')).toHaveText('line one\nline two');
  await page.keyboard.press('Escape');
  await expect(preview).toBeHidden();
  await shot(page, 'files-grid-thumbnails');
  await context.close();
});

test('[user] a video plays in the preview and seeks (Range)', async ({ browser }) => {
  const { context, page, screen, home } = await member(browser);
  await screen.seedFile('clip.webm', webm(), home.id);
  await screen.open(home.id);
  await screen.card('clip.webm').getByRole('button', { name: 'clip.webm' }).first().dblclick();
  const video = page.getByTestId('preview-video');
  await expect(video).toBeVisible();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
  expect(await video.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(10);
  // Seek to 6 s: the browser fetches that part with a Range request.
  const seeked = await video.evaluate(
    (v: HTMLVideoElement) =>
      new Promise<number>((resolve) => {
        v.addEventListener('seeked', () => resolve(v.currentTime), { once: true });
        v.currentTime = 6;
      }),
  );
  expect(seeked).toBeCloseTo(6, 0);
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(6.2);
  await context.close();
});

test('[public] the shared-link page of an image share shows the image; a password share asks first', async ({
  browser,
}) => {
  const { context, screen, home } = await member(browser);
  const file = await screen.seedFile('sunset.png', await png(1200, 700, 250, 150, 60), home.id);
  const share = await screen.seedShare(file.id, 'public');
  const visitor = await browser.newContext({ baseURL: BASE_URL });
  const page = await visitor.newPage();
  await page.goto(`/shared/${share.token}`);
  await expect(page.getByTestId('shared-name')).toHaveText('sunset.png');
  await imageLoaded(page, '[data-testid=shared-image]');
  await shot(page, 'shared-image');

  // Password-protected: refused without it, wrong one said, served with it.
  const res = await fetch(`${BASE_URL}/api/files/${file.id}/share`, {
    method: 'POST',
    headers: { authorization: `Bearer ${screen.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ accessLevel: 'public', password: 'guild-secret' }),
  });
  const locked = ((await res.json()) as { data: { token: string } }).data;
  await page.goto(`/shared/${locked.token}`);
  await expect(page.getByRole('heading', { name: FILE_MANAGER_TEXTS.passwordRequired })).toBeVisible();
  await expect(page.getByTestId('shared-name')).toHaveCount(0);
  await shot(page, 'shared-password');
  await page.getByTestId('shared-password').fill('wrong guess');
  await page.getByRole('button', { name: FILE_MANAGER_TEXTS.unlock }).click();
  await expect(page.getByText(FILE_MANAGER_TEXTS.passwordWrong)).toBeVisible();
  await page.getByTestId('shared-password').fill('guild-secret');
  await page.getByRole('button', { name: FILE_MANAGER_TEXTS.unlock }).click();
  await expect(page.getByTestId('shared-name')).toHaveText('sunset.png');
  await imageLoaded(page, '[data-testid=shared-image]');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  expect((await download).suggestedFilename()).toBe('sunset.png');
  await visitor.close();
  await context.close();
});

test('[user] an SVG with a script never runs it: not in the preview, not opened directly', async ({
  browser,
}) => {
  const { context, page, screen, home } = await member(browser);
  const svg = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="teal"/>' +
      '<script>fetch("/svg-script-ran");alert("svg script ran")</script></svg>',
  );
  const file = await screen.seedFile('evil.svg', svg, home.id);
  const ran: string[] = [];
  page.on('dialog', (d) => {
    ran.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('request', (r) => r.url().includes('svg-script-ran') && ran.push(r.url()));
  await screen.open(home.id);
  await expect(screen.card('evil.svg').getByTestId('thumbnail')).toBeVisible(); // rasterised by the server
  await screen.menu('evil.svg', 'Preview');
  await imageLoaded(page, '[data-testid=preview-image]'); // shown through <img>: scripts never run there
  await page.keyboard.press('Escape');

  // Opened directly (a member pasting the address): it downloads instead of rendering.
  const ticket = await page.evaluate(async (id) => {
    const token = localStorage.getItem('authToken') ?? localStorage.getItem('token');
    const res = await fetch(`/api/files/${id}/download-ticket`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    return ((await res.json()) as { data: { url: string } }).data.url;
  }, file.id);
  const previewAddress = ticket.replace(/^\/download\/([^?]+)\?/, '/api/files/$1/preview?');
  const download = page.waitForEvent('download');
  await page.goto(previewAddress).catch(() => {}); // navigation turns into a download
  expect((await download).suggestedFilename()).toBe('evil.svg');
  // Sentinel: a page load after both; anything the script did would have happened by now.
  await screen.open(home.id);
  expect(ran).toEqual([]);
  await context.close();
});

test('[user] search finds a file three folders deep and shows where it is', async ({ browser }) => {
  const { context, page, screen, home } = await member(browser);
  const a = await screen.seedFolder('Campaigns', home.id);
  const b = await screen.seedFolder('Season 2', a.id);
  const c = await screen.seedFolder('Maps', b.id);
  await screen.seedFile('dragon-lair.png', await png(300, 200, 90, 160, 90), c.id);
  await screen.open(home.id);
  await page.getByTestId('search-all').fill('DRAGON-lair');
  const hit = page.locator('[data-testid=search-hit][data-name="dragon-lair.png"]');
  await expect(hit).toBeVisible();
  await expect(hit.getByTestId('search-hit-path')).toHaveText(
    [ROOT_FOLDER_LABEL, home.name, 'Campaigns', 'Season 2', 'Maps'].join(' › '),
  );
  await shot(page, 'files-search');
  await hit.getByTestId('search-hit-path').click();
  await expect(screen.crumb('Maps')).toBeVisible();
  await expect(screen.card('dragon-lair.png')).toBeVisible();
  await context.close();
});

test('[user] moves by drag onto a folder and by "Move to…"; keyboard: Ctrl+A, F2, Delete; the trash restores', async ({
  browser,
}) => {
  const { context, page, screen, home } = await member(browser);
  await screen.seedFolder('Archive', home.id);
  await screen.seedFile('a.txt', Buffer.from('a'), home.id);
  await screen.seedFile('b.txt', Buffer.from('b'), home.id);
  await screen.seedFile('c.txt', Buffer.from('c'), home.id);
  await screen.open(home.id);

  // Drag a.txt onto the Archive folder.
  await screen.card('a.txt').dragTo(screen.card('Archive'));
  await expect(page.getByText('Moved 1 item(s)')).toBeVisible();
  await expect(screen.card('a.txt')).toHaveCount(0);

  // Shift-click selects a range; "Move to…" moves both.
  await screen.card('b.txt').getByRole('checkbox').click();
  await screen
    .card('c.txt')
    .getByRole('checkbox')
    .click({ modifiers: ['Shift'] });
  await expect(page.getByTestId('selection-bar')).toContainText('2 selected');
  await page.getByTestId('selection-bar').getByRole('button', { name: FILE_MANAGER_TEXTS.moveTo }).click();
  await screen.dialog.getByTestId('move-folder').filter({ hasText: 'Archive' }).click();
  await screen.dialog.getByRole('button', { name: 'Move here' }).click();
  await expect(page.getByText('Moved 2 item(s)')).toBeVisible();
  await screen.openFolderCard('Archive');
  await expect(screen.cards).toHaveCount(3);

  // Ctrl+A selects everything shown; F2 renames the one selected; Delete sends to the trash.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Control+a');
  await expect(page.getByTestId('selection-bar')).toContainText('3 selected');
  await page.keyboard.press('Escape');
  await screen.card('b.txt').getByRole('checkbox').click();
  await page.keyboard.press('F2');
  await screen.dialog.getByRole('textbox').fill('bee.txt');
  await screen.dialog.getByRole('textbox').press('Enter');
  await expect(screen.card('bee.txt')).toBeVisible();
  await expect(screen.card('bee.txt')).toHaveAttribute('data-selected', 'true'); // still selected after the rename
  await page.keyboard.press('Delete');
  await screen.dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(screen.card('bee.txt')).toHaveCount(0);

  await page.getByRole('button', { name: FILE_MANAGER_TEXTS.trash }).click();
  const item = page.locator('[data-testid=trash-item][data-name="bee.txt"]');
  await expect(item).toBeVisible();
  await shot(page, 'files-trash');
  await item.getByRole('button', { name: FILE_MANAGER_TEXTS.restore }).click();
  await expect(item).toHaveCount(0);
  await page.getByRole('button', { name: FILE_MANAGER_TEXTS.trash }).click();
  await expect(screen.card('bee.txt')).toBeVisible();
  await context.close();
});

test('[user] a toast raised from a dialog shows above it; the owner is the uploader everywhere', async ({
  browser,
}) => {
  const { context, page, screen, home, member: m } = await member(browser);
  const file = await screen.seedFile('map.png', await png(64, 64, 10, 200, 10), home.id);
  await screen.open(home.id);
  await expect(screen.card('map.png')).toContainText(m.username);
  await screen.menu('map.png', 'Share');
  await screen.dialog.getByRole('button', { name: 'Create Share Link' }).click();
  const toast = page.getByText('Share link created');
  await expect(toast).toBeVisible();
  // The topmost element where the toast is drawn is the toast itself (above the dialog and its backdrop,
  // and not inert: its close button works).
  const box = (await toast.boundingBox())!;
  const topmost = await page.evaluate(
    ({ x, y }) => document.elementFromPoint(x, y)?.closest('[data-sonner-toast]') !== null,
    { x: box.x + box.width / 2, y: box.y + box.height / 2 },
  );
  expect(topmost).toBe(true);
  await page.getByRole('button', { name: 'Close toast' }).first().click();
  await expect(toast).toBeHidden();
  await shot(page, 'files-share-dialog');
  void file;
  await context.close();
});

test('[user] a folder downloads as one ZIP', async ({ browser }) => {
  const { context, page, screen, home } = await member(browser);
  const inner = await screen.seedFolder('Screens', home.id);
  await screen.seedFile('one.png', await png(32, 32, 1, 2, 3), inner.id);
  await screen.open(home.id);
  const download = page.waitForEvent('download');
  await screen.menu('Screens', 'Download as ZIP');
  const zip = await download;
  expect(zip.suggestedFilename()).toBe('Screens.zip');
  const listing = execFileSync('unzip', ['-Z1', (await zip.path())!], { encoding: 'utf8' });
  expect(listing.trim()).toBe('Screens/one.png');
  await context.close();
});

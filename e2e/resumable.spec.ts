import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHUNK_SIZE_BYTES, RECONNECTING_TEXT, RESUMABLE_UPLOAD_PATH } from '@guildhall/common';
import { deadline } from '../server/src/test/time-scale.ts';
import { BASE_URL } from './support/env.ts';
import { FilesScreen } from './support/files-screen.ts';
import { expect, signedInContext, test } from './support/fixtures.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

test('[user] a 60 MiB upload whose connection drops half way says Reconnecting…, resumes without resending stored chunks, and arrives intact', async ({
  browser,
}) => {
  const { context, page, member } = await signedInContext(browser, { access_level: 'user' });
  const screen = new FilesScreen(page, member.token);
  const home = await screen.seedFolder(`e2e ${member.username}`);
  const content = randomBytes(60 * 1024 * 1024);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-e2e-')), 'sixty.bin');
  fs.writeFileSync(file, content);

  // Every chunk request the page sends (its Upload-Offset); the one for chunk 3 is cut off once.
  const sent: { offset: number; bytes: number; aborted: boolean }[] = [];
  let cut = false;
  // SHOT_DIR=dir: the reconnect is held until the card is photographed at 1280 and 375 px.
  const shots = process.env.SHOT_DIR;
  let photographed: () => void = () => {};
  const held = new Promise<void>((r) => {
    photographed = r;
  });
  await page.route(`**${RESUMABLE_UPLOAD_PATH}/**`, async (route) => {
    const req = route.request();
    if (req.method() === 'HEAD' && cut && shots) await held;
    if (req.method() !== 'PATCH') return route.continue();
    const offset = Number(req.headers()['upload-offset']);
    const bytes = req.postDataBuffer()?.length ?? 0;
    if (!cut && offset === 3 * CHUNK_SIZE_BYTES) {
      cut = true;
      sent.push({ offset, bytes, aborted: true });
      return route.abort('connectionreset');
    }
    sent.push({ offset, bytes, aborted: false });
    return route.continue();
  });

  await screen.open(home.id);
  await screen.uploadInput.setInputFiles(file);
  const card = screen.uploadCard('sixty.bin');
  await expect(card).toContainText(RECONNECTING_TEXT, { timeout: deadline(60_000) });
  if (shots) {
    await page.screenshot({ path: path.join(shots, 'reconnecting-1280.png') });
    await page.setViewportSize({ width: 375, height: 740 });
    await page.screenshot({ path: path.join(shots, 'reconnecting-375.png') });
    await page.setViewportSize({ width: 1280, height: 720 });
    photographed();
  }
  await expect(card).toHaveAttribute('data-state', 'completed', { timeout: deadline(60_000) });
  await expect(card).toContainText('Upload complete');

  // Chunks 0–2 went once; after the cut the page went on from chunk 3 (the server's offset), never from 0.
  const delivered = sent.filter((s) => !s.aborted);
  expect(delivered.map((s) => s.offset / CHUNK_SIZE_BYTES)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  expect(delivered.reduce((sum, s) => sum + s.bytes, 0)).toBe(content.length);

  await expect(screen.card('sixty.bin')).toBeVisible();
  const items = (await (
    await fetch(`${BASE_URL}/api/files?folderId=${home.id}`, {
      headers: { authorization: `Bearer ${member.token}` },
    })
  ).json()) as { data: { id: string; name: string; sha256: string }[] };
  const item = items.data.find((i) => i.name === 'sixty.bin')!;
  expect(item.sha256).toBe(sha(content));
  const download = await fetch(`${BASE_URL}/download/${item.id}`, {
    headers: { authorization: `Bearer ${member.token}` },
  });
  expect(sha(Buffer.from(await download.arrayBuffer()))).toBe(sha(content));
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  await context.close();
});

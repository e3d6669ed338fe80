import path from 'node:path';
import { PICTIONARY_TEXTS as T } from '@guildhall/common';
import type { Browser, BrowserContext } from '@playwright/test';
import { ROOT } from './support/env.ts';
import { expect, signedInContext, test } from './support/fixtures.ts';
import { PictionaryScreen } from './support/pictionary-screen.ts';

type Player = { context: BrowserContext; screen: PictionaryScreen; username: string };
const opened: Player[] = [];
const SHOTS = path.join(ROOT, '.tmp', 'screenshots');

async function player(browser: Browser): Promise<Player> {
  const { context, page, member } = await signedInContext(browser);
  const screen = new PictionaryScreen(page);
  await screen.open();
  const p = { context, screen, username: member.username };
  opened.push(p);
  return p;
}

/** Screenshots at 1280 and 375 px in both themes (looked at by hand; .tmp/screenshots). */
async function shoot(p: Player, name: string): Promise<void> {
  for (const [label, width] of [
    ['desktop', 1280],
    ['phone', 375],
  ] as const) {
    await p.screen.page.setViewportSize({ width, height: 800 });
    for (const theme of ['light', 'dark'] as const) {
      await p.screen.page.evaluate((t) => {
        document.documentElement.dataset.theme = t;
      }, theme);
      await p.screen.page.screenshot({
        path: path.join(SHOTS, `pictionary-${label}-${name}-${theme}.png`),
        fullPage: true,
      });
    }
  }
  await p.screen.page.setViewportSize({ width: 1280, height: 720 });
}

test.afterEach(async () => {
  for (const p of opened.splice(0)) {
    await p.screen.page
      .evaluate(async () => {
        const h = { authorization: `Bearer ${localStorage.getItem('authToken')}` };
        const cur = await (await fetch('/api/games/pictionary/current', { headers: h })).json();
        if (cur.game)
          await fetch(`/api/games/pictionary/${cur.game.id}/leave`, { method: 'POST', headers: h });
      })
      .catch(() => {});
    await p.context.close();
  }
});

test('[pictionary] undo and fill by the drawer show the same pixels on a guesser’s canvas, live and after a reload; a stroke that leaves and re-enters is one stroke', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const [host, guesser] = [await player(browser), await player(browser)];
  await host.screen.findButton.click();
  await guesser.screen.findButton.click();
  await expect(host.screen.playerCount).toHaveText('2/8 Players');
  await host.screen.button(T.startGame).click();
  await expect(guesser.screen.page.getByText(T.watchAndGuess)).toBeVisible();
  const { page } = host.screen;
  const same = async () => {
    const want = await host.screen.dataUrl();
    await expect.poll(() => guesser.screen.dataUrl()).toBe(want);
    return want;
  };

  // A closed outline in one stroke, then a fill inside it in red with the fill bucket.
  await page.getByRole('button', { name: T.brushSize(10) }).click();
  await host.screen.pressAndDrag([200, 150], [600, 150], 10);
  for (const [x, y] of [
    [600, 450],
    [200, 450],
    [200, 150],
  ] as const) {
    const to = await host.screen.pagePoint(x, y);
    await page.mouse.move(to.x, to.y, { steps: 10 });
  }
  await page.mouse.up();
  const outline = await same();
  await host.screen.useTool(T.fill);
  await expect(page.getByRole('button', { name: T.fill, exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await page.getByRole('button', { name: 'Colour #ff0000' }).click();
  const inside = await host.screen.pagePoint(400, 300);
  await page.mouse.click(inside.x, inside.y);
  await expect.poll(() => guesser.screen.pixel(400, 300)).toEqual([255, 0, 0, 255]);
  expect(await guesser.screen.pixel(100, 100)).toEqual([255, 255, 255, 255]); // outside the outline
  const filled = await same();
  expect(filled).not.toBe(outline);
  await shoot(host, 'drawing-tools');
  await shoot(guesser, 'guesser-after-fill');

  // A stroke that leaves the canvas with the button held and comes back is one stroke: one undo takes it all.
  await host.screen.useTool(T.brush);
  await host.screen.pressAndDrag([700, 100], [990, 100], 5);
  const box = (await host.screen.canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width + 40, box.y + 60, { steps: 3 });
  const back = await host.screen.pagePoint(900, 550);
  await page.mouse.move(back.x, back.y, { steps: 5 });
  const on = await host.screen.pagePoint(800, 580);
  await page.mouse.move(on.x, on.y, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => (await guesser.screen.pixel(850, 565))[0]).toBe(255); // the re-entered part
  await expect.poll(async () => (await guesser.screen.pixel(850, 565))[1]).toBe(0);
  await same();
  await page.getByRole('button', { name: T.undo, exact: true }).click();
  await expect.poll(() => guesser.screen.dataUrl()).toBe(filled);
  expect(await host.screen.dataUrl()).toBe(filled);

  // Ctrl+Z undoes the fill; the canvas is the outline again, on both screens.
  await page.keyboard.press('Control+z');
  await expect.poll(() => guesser.screen.dataUrl()).toBe(outline);
  expect(await host.screen.dataUrl()).toBe(outline);

  // Fill again, then reload both players: the replay paints the same pixels.
  await host.screen.useTool(T.fill);
  await page.getByRole('button', { name: 'Colour #0000ff' }).click();
  await page.mouse.click(inside.x, inside.y);
  const refilled = await same();
  expect(refilled).not.toBe(filled);
  await guesser.screen.page.reload();
  await expect.poll(() => guesser.screen.dataUrl()).toBe(refilled);
  await page.reload();
  await expect.poll(() => host.screen.dataUrl()).toBe(refilled);
  // After a reload the drawer's undo still walks back (stroke ids continue from the replay).
  await page.getByRole('button', { name: T.undo, exact: true }).click();
  await expect.poll(() => guesser.screen.dataUrl()).toBe(outline);

  // The mute toggle is remembered for this member across a reload; another member's choice is their own.
  const mute = (p: Player) => p.screen.page.getByRole('button', { name: T.muteSounds });
  await expect(mute(guesser)).toHaveAttribute('aria-pressed', 'false');
  await mute(guesser).click();
  await expect(mute(guesser)).toHaveAttribute('aria-pressed', 'true');
  await guesser.screen.page.reload();
  await expect(mute(guesser)).toHaveAttribute('aria-pressed', 'true');
  await expect(mute(host)).toHaveAttribute('aria-pressed', 'false');
});

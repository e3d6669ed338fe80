import path from 'node:path';
import { TICTACTOE_TEXTS as T } from '@guildhall/common';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { createMember } from './support/db.ts';
import { BASE_URL, ROOT } from './support/env.ts';
import { expect, randomDiscordId, setDiscordUser, signedInContext, test } from './support/fixtures.ts';
import { TicTacToeScreen } from './support/tictactoe-screen.ts';

type Player = { context: BrowserContext; screen: TicTacToeScreen; username: string };
const opened: Player[] = [];
const SHOTS = path.join(ROOT, '.tmp', 'screenshots');

async function player(browser: Browser): Promise<Player> {
  const { context, page, member } = await signedInContext(browser);
  const screen = new TicTacToeScreen(page, member.token);
  await screen.open();
  const p = { context, screen, username: member.username };
  opened.push(p);
  return p;
}

/** Screenshots at 1280 and 375 px in both themes (looked at by hand; .tmp/screenshots). */
async function shoot(page: Page, name: string): Promise<void> {
  for (const [label, width] of [
    ['desktop', 1280],
    ['phone', 375],
  ] as const) {
    await page.setViewportSize({ width, height: 800 });
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => {
        document.documentElement.dataset.theme = t;
      }, theme);
      await page.screenshot({
        path: path.join(SHOTS, `tictactoe-${label}-${name}-${theme}.png`),
        fullPage: true,
      });
    }
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test.afterEach(async () => {
  for (const p of opened.splice(0)) {
    await p.screen.cleanUp().catch(() => undefined);
    await p.context.close();
  }
});

test('[tic-tac-toe] invite a friend by link: Find Game never lands in it, the friend signs in and plays O; a full or finished game says so', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const [host, stranger, late] = [await player(browser), await player(browser), await player(browser)];
  await host.screen.page.getByRole('button', { name: T.inviteFriend }).click();
  const link = await host.screen.page.getByTestId('invite-link').inputValue();
  expect(link).toMatch(/\/minigames\/tic-tac-toe\?join=[0-9a-f-]{36}$/);
  await expect(host.screen.headline).toHaveText(T.waitingForOpponent);
  const id = link.split('join=')[1]!;
  await shoot(host.screen.page, 'invite');

  // Public Find Game never matches into the private game: the stranger waits in a game of their own.
  await stranger.screen.findButton.click();
  await expect(stranger.screen.headline).toHaveText(T.waitingForOpponent);
  expect(await stranger.screen.gameId.textContent()).not.toBe(id);

  // The friend, signed out, opens the link: sign-in with Discord returns to it and seats them as O.
  const context = await browser.newContext({ baseURL: BASE_URL });
  const page = await context.newPage();
  const discordId = randomDiscordId();
  const friend = await createMember({ discord_id: discordId, username: `friend_${discordId.slice(-6)}` });
  await page.goto(link);
  await expect(page).toHaveURL(
    `${BASE_URL}/login?next=${encodeURIComponent(`/minigames/tic-tac-toe?join=${id}`)}`,
  );
  await setDiscordUser(context, { id: discordId, username: friend.username });
  await page.getByRole('button', { name: 'Continue with Discord' }).click();
  const friendScreen = new TicTacToeScreen(page, friend.token);
  opened.push({ context, screen: friendScreen, username: friend.username });
  await expect(page).toHaveURL(`${BASE_URL}/minigames/tic-tac-toe`, { timeout: 10_000 });
  await expect(friendScreen.status).toHaveText('In Progress');
  await expect(friendScreen.gameId).toHaveText(id);
  await expect(friendScreen.playerName('O')).toHaveText(friend.username);
  await expect(host.screen.status).toHaveText('In Progress');
  await expect(host.screen.playerName('O')).toHaveText(friend.username);
  await expect(host.screen.page.getByTestId('invite-box')).toHaveCount(0);

  // A third member with the link: the game is full, and the screen says so.
  await late.screen.page.goto(link);
  await expect(late.screen.page.getByTestId('invite-error')).toHaveText(T.inviteFull);
  await expect(late.screen.findButton).toBeVisible();
  await shoot(late.screen.page, 'invite-full');

  // Once the game is over the link says that instead.
  for (const [who, cell] of [
    [host, 0],
    [friendScreen, 3],
    [host, 1],
    [friendScreen, 4],
    [host, 2],
  ] as const) {
    const screen = 'screen' in who ? who.screen : who;
    await expect(screen.board).toHaveAttribute('data-my-turn', 'true');
    await screen.cell(cell).click();
  }
  await expect(host.screen.headline).toHaveText(T.win);
  await late.screen.page.goto(link);
  await expect(late.screen.page.getByTestId('invite-error')).toHaveText(T.inviteEnded);
});

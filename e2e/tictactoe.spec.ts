import path from 'node:path';
import { TICTACTOE_TEXTS as T, TICTACTOE_ABSENT_AFTER_MS } from '@guildhall/common';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { createMember, setLastSeen } from './support/db.ts';
import { BASE_URL, ROOT } from './support/env.ts';
import { expect, randomDiscordId, setDiscordUser, signedInContext, test } from './support/fixtures.ts';
import { SHOTS_WANTED } from './support/shots.ts';
import { TicTacToeScreen } from './support/tictactoe-screen.ts';

type Player = { context: BrowserContext; screen: TicTacToeScreen; username: string; userId: string };

const opened: Player[] = [];
const SHOTS = path.join(ROOT, '.tmp', 'screenshots');

/** A signed-in member on the tic-tac-toe screen; `switches` can leave only one delivery path. */
async function player(
  browser: Browser,
  switches?: { polling?: boolean; realtime?: boolean },
): Promise<Player> {
  const { context, page, member } = await signedInContext(browser);
  if (switches) await TicTacToeScreen.configure(context, switches);
  const screen = new TicTacToeScreen(page, member.token);
  await screen.open();
  const p = { context, screen, username: member.username, userId: member.userId };
  opened.push(p);
  return p;
}

/** Both press Find Game, x first: x waits, o joins x's game. */
async function meet(x: Player, o: Player): Promise<void> {
  await x.screen.findButton.click();
  await expect(x.screen.headline).toHaveText(T.waitingForOpponent);
  await o.screen.findButton.click();
  await expect(o.screen.status).toHaveText('In Progress');
  await expect(x.screen.status).toHaveText('In Progress');
  await expect(o.screen.gameId).toHaveText((await x.screen.gameId.textContent()) ?? 'missing');
}

/**
 * `mover` plays `cell`; the opponent's board must show it, and sooner than the 2 s poll would. With polling
 * switched off the push is the only way there at all. The time bound runs from the moment the mover's own
 * board shows the move (the server has applied it) to the moment the opponent's does (the push arrived):
 * typically tens of ms; 1.5 s allowed so a loaded CI machine (click and HTTP delays) cannot fail it, while
 * a push that came no faster than a poll still would.
 */
async function play(mover: Player, opponent: Player, cell: number, mark: 'X' | 'O', withinMs = 1500) {
  await expect(mover.screen.board).toHaveAttribute('data-my-turn', 'true');
  // Each page notes the moment this cell gets its mark (not when the test next looks at it). Only the
  // data-mark of this one cell counts, and the observer stops there: an observer watching every
  // attribute (as this once did) also fired when an earlier, marked cell lost its tabindex at the click,
  // so the "applied" moment came before the server had the move and a slow request failed the bound.
  for (const p of [mover, opponent]) {
    await p.screen.page.evaluate((i) => {
      const el = document.querySelector(`[data-testid="cell-${i}"]`)!;
      const w = window as unknown as { markedAt?: Record<number, number> };
      w.markedAt ??= {};
      const marks = w.markedAt;
      const observer = new MutationObserver(() => {
        if (!el.getAttribute('data-mark')) return;
        marks[i] ??= Date.now();
        observer.disconnect();
      });
      observer.observe(el, { attributes: true, attributeFilter: ['data-mark'] });
    }, cell);
  }
  await mover.screen.cell(cell).click();
  await expect(mover.screen.cell(cell)).toHaveAttribute('data-mark', mark);
  await expect(opponent.screen.cell(cell)).toHaveAttribute('data-mark', mark, { timeout: withinMs + 1000 });
  const markedAt = (p: Player) =>
    p.screen.page.evaluate(
      (i) => (window as unknown as { markedAt?: Record<number, number> }).markedAt?.[i],
      cell,
    );
  const applied = (await markedAt(mover)) ?? Number.NaN;
  const pushed = (await markedAt(opponent)) ?? Number.POSITIVE_INFINITY;
  const elapsed = pushed - applied;
  expect(elapsed, `move ${cell} reached the opponent ${elapsed} ms after the mover saw it`).toBeLessThan(
    withinMs,
  );
}

/** Screenshots at 1280 and 375 px in both themes (looked at by hand; .tmp/screenshots). */
async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS_WANTED) return;
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

test.describe('minigames', () => {
  test('[member] the menu shows Tic-Tac-Toe and Pictionary and leads back to the dashboard', async ({
    memberPage: page,
  }) => {
    await page.goto('/minigames');
    await expect(page.getByRole('heading', { name: 'Minigames' })).toBeVisible();
    await expect(page.getByTestId('game-card-pictionary')).toHaveAttribute('href', '/minigames/pictionary');
    await page.getByTestId('game-card-tic-tac-toe').click();
    await expect(page).toHaveURL(`${BASE_URL}/minigames/tic-tac-toe`);
    await expect(page.getByRole('button', { name: T.findGame })).toBeVisible();
    await page.getByRole('link', { name: T.backToMinigames }).click();
    await expect(page).toHaveURL(`${BASE_URL}/minigames`);
    await page.getByRole('link', { name: T.backToDashboard }).click();
    await expect(page).toHaveURL(`${BASE_URL}/dashboard`);
  });

  test('[signed out] /minigames and /minigames/tic-tac-toe send the visitor to /login', async ({ page }) => {
    for (const path of ['/minigames', '/minigames/tic-tac-toe']) {
      await page.goto(path);
      // Sign-in brings the visitor back (`?next=`).
      await expect(page).toHaveURL(new RegExp(`^${BASE_URL}/login(\\?next=.*)?$`));
    }
  });
});

test.describe('tic-tac-toe', () => {
  test('two members meet through Find Game and play to a win, each move pushed to the other at once', async ({
    browser,
  }) => {
    // Polling off on both screens: every update the opponent sees must come through the realtime push.
    const x = await player(browser, { polling: false });
    const o = await player(browser, { polling: false });
    await meet(x, o);
    await expect(x.screen.live).toBeVisible();
    await expect(o.screen.live).toBeVisible();

    for (const s of [x.screen, o.screen]) {
      await expect(s.playerName('X')).toHaveText(x.username);
      await expect(s.playerName('O')).toHaveText(o.username);
      await expect(s.turn).toContainText('X');
      await expect(s.winner).toHaveText('—');
    }
    await expect(x.screen.headline).toHaveText(T.yourTurn);
    await expect(x.screen.player('X')).toHaveAttribute('data-active', 'true');
    await expect(o.screen.headline).toHaveText(`${x.username}'s turn`);
    await expect(o.screen.board).toHaveAttribute('data-my-turn', 'false');

    await play(x, o, 0, 'X');
    await play(o, x, 3, 'O');
    await play(x, o, 1, 'X');
    await play(o, x, 4, 'O');
    await play(x, o, 2, 'X');

    await expect(x.screen.headline).toHaveText(T.win);
    await expect(o.screen.headline).toHaveText(T.lose);
    for (const s of [x.screen, o.screen]) {
      await expect(s.status).toHaveText('Finished');
      await expect(s.winner).toHaveText('X');
    }
  });

  test('after a win, Rematch starts a new game that ends in a draw', async ({ browser }) => {
    const x = await player(browser);
    const o = await player(browser);
    await meet(x, o);
    for (const [p, cell] of [
      [x, 0],
      [o, 3],
      [x, 1],
      [o, 4],
      [x, 2],
    ] as const)
      await p.screen.cell(cell).click();
    await expect(o.screen.headline).toHaveText(T.lose);

    // The loser asks; the winner sees the offer and accepts. The asker plays X in the new game.
    await o.screen.rematchButton.click();
    await expect(o.screen.headline).toHaveText(`Waiting for ${x.username} to accept the rematch...`);
    await expect(x.screen.page.getByTestId('rematch-offer')).toHaveText(`${o.username} wants a rematch!`);
    await x.screen.acceptRematchButton.click();
    for (const s of [x.screen, o.screen]) {
      await expect(s.status).toHaveText('In Progress');
      await expect(s.playerName('X')).toHaveText(o.username);
      await expect(s.playerName('O')).toHaveText(x.username);
    }
    // X O X / X O O / O X X
    for (const [p, cell] of [
      [o, 0],
      [x, 1],
      [o, 2],
      [x, 4],
      [o, 3],
      [x, 5],
      [o, 7],
      [x, 6],
      [o, 8],
    ] as const) {
      await expect(p.screen.board).toHaveAttribute('data-my-turn', 'true');
      await p.screen.cell(cell).click();
    }
    for (const s of [x.screen, o.screen]) {
      await expect(s.headline).toHaveText(T.draw);
      await expect(s.winner).toHaveText('Draw');
      // The series score carries over: o (X now) 0 – 1 x, one draw.
      await expect(s.page.getByTestId('game-series')).toHaveText(`${o.username} 0 – 1 ${x.username}, 1 draw`);
    }
    // x moves on: o is no longer offered a rematch, and is told why.
    await x.screen.page.getByRole('button', { name: T.leaveGame }).click();
    await expect(o.screen.page.getByText(T.opponentLeftFinished(x.username))).toBeVisible();
    await expect(o.screen.rematchButton).toHaveCount(0);
  });

  test('a move out of turn is refused: the cells are locked and the server says no', async ({ browser }) => {
    const x = await player(browser);
    const o = await player(browser);
    await meet(x, o);
    const gameId = (await x.screen.gameId.textContent())!;

    // On X's turn O's board is locked.
    await expect(o.screen.board).toHaveAttribute('data-my-turn', 'false');
    await expect(o.screen.cell(4)).toBeDisabled();
    // A hand-made request for O is refused by the server, and nothing changes on either screen.
    const refused = await o.screen.api('POST', `/${gameId}/move`, { position: 4 });
    expect(refused).toEqual({
      status: 409,
      body: { success: false, error: T.notYourTurn, code: 'INVALID_MOVE' },
    });
    await x.screen.cell(0).click();
    await expect(o.screen.cell(0)).toHaveAttribute('data-mark', 'X');
    const again = await x.screen.api('POST', `/${gameId}/move`, { position: 8 });
    expect(again.body.error).toBe(T.notYourTurn);
    for (const s of [x.screen, o.screen]) {
      await expect(s.cell(4)).toHaveAttribute('data-mark', '');
      await expect(s.cell(8)).toHaveAttribute('data-mark', '');
    }
  });

  test('leaving mid-game gives the opponent the win', async ({ browser }) => {
    const x = await player(browser);
    const o = await player(browser);
    await meet(x, o);
    await x.screen.cell(4).click();
    await expect(o.screen.cell(4)).toHaveAttribute('data-mark', 'X');

    await x.screen.leaveButton.click();
    await expect(x.screen.findButton).toBeVisible();
    await expect(o.screen.headline).toHaveText(T.win);
    await expect(o.screen.detail).toHaveText(`${x.username} left the game.`);
    await expect(o.screen.winner).toHaveText('O');
  });

  test('an opponent who vanished mid-game: the player who stayed claims the win', async ({ browser }) => {
    const x = await player(browser);
    const o = await player(browser);
    await meet(x, o);
    await x.screen.cell(4).click();
    await expect(o.screen.cell(4)).toHaveAttribute('data-mark', 'X');
    const gameId = (await o.screen.gameId.textContent())!;

    // X closes the tab without leaving. For now X counts as here: no claim offered, and the server refuses one.
    await x.context.close();
    await expect(o.screen.opponentLeft).toBeHidden();
    await expect(o.screen.claimButton).toBeHidden();
    const early = await o.screen.api('POST', `/${gameId}/claim`);
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ success: false, code: 'OPPONENT_PRESENT' });
    expect(early.body.error).toMatch(/^Your opponent is still here: you can claim the win if they stay away/);

    // X's seat ages past the threshold (instead of the test waiting 90 s); O's next poll shows it.
    await setLastSeen(x.userId, TICTACTOE_ABSENT_AFTER_MS + 1000);
    await expect(o.screen.opponentLeft).toHaveText(T.opponentLeft);
    await o.screen.claimButton.click();

    await expect(o.screen.headline).toHaveText(T.win);
    await expect(o.screen.detail).toHaveText(`${x.username} stopped playing, so you claimed the win.`);
    await expect(o.screen.status).toHaveText('Finished');
    await expect(o.screen.winner).toHaveText('O');
    await expect(o.screen.claimButton).toBeHidden();
    await expect(o.screen.opponentLeft).toBeHidden();
  });

  test('opening the screen finds the game you are already in', async ({ browser }) => {
    const x = await player(browser);
    await x.screen.findButton.click();
    await expect(x.screen.headline).toHaveText(T.waitingForOpponent);
    const id = await x.screen.gameId.textContent();
    await x.screen.page.reload();
    await expect(x.screen.gameId).toHaveText(id!);
    await expect(x.screen.status).toHaveText('Waiting');
    // Leaving a waiting game cancels it.
    await x.screen.leaveButton.click();
    await expect(x.screen.findButton).toBeVisible();
    expect((await x.screen.api('GET', `/${id}`)).body.game).toMatchObject({
      status: 'finished',
      endReason: 'cancelled',
    });
  });

  test('without the realtime channel the 2 s polling still brings every move', async ({ browser }) => {
    const x = await player(browser, { realtime: false });
    const o = await player(browser, { realtime: false });
    await meet(x, o);
    // The blocked handshake fails after the client's 5 s connect timeout; then the badge says Polling.
    await expect(o.screen.page.getByText('Polling', { exact: true })).toBeVisible();
    await x.screen.cell(4).click();
    // Polling every 2 s: the move shows up on the other screen within one interval (plus slack).
    await expect(o.screen.cell(4)).toHaveAttribute('data-mark', 'X');
    await expect(o.screen.headline).toHaveText(T.yourTurn);
  });

  test('failures show the spec texts: "Failed to join game" and "Failed to make move"', async ({
    browser,
  }) => {
    const x = await player(browser);
    const o = await player(browser);
    await x.screen.page.route('**/api/games/tic-tac-toe/join', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"success":false,"error":"Down for maintenance"}',
      }),
    );
    await x.screen.findButton.click();
    await expect(x.screen.toast(T.joinFailed)).toBeVisible();
    // A 5xx's own text is not shown: the friendly line of web/src/api/server-fault.ts is.
    await expect(x.screen.toast(T.joinFailed)).toContainText('The server could not answer just now.');
    await expect(x.screen.toast(T.joinFailed)).not.toContainText('Down for maintenance');
    await x.screen.page.unroute('**/api/games/tic-tac-toe/join');

    await meet(x, o);
    // The opponent's move lands a moment before X's click reaches the server (a stale screen).
    await x.screen.page.route('**/move', (route) =>
      route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, error: T.cellTaken }),
      }),
    );
    await x.screen.cell(0).click();
    await expect(x.screen.toast(T.moveFailed)).toBeVisible();
    await expect(x.screen.toast(T.moveFailed)).toContainText(T.cellTaken);
  });
});

// In this file, not one of its own: tic-tac-toe tests of two files would run at once (two workers) and Find
// Game would match their players with each other.
test('[tic-tac-toe] invite a friend by link: Find Game never lands in it, the friend signs in and plays O; a full or finished game says so', async ({
  browser,
}) => {
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
  opened.push({ context, screen: friendScreen, username: friend.username, userId: discordId });
  await expect(page).toHaveURL(`${BASE_URL}/minigames/tic-tac-toe`);
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

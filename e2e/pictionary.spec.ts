import path from 'node:path';
import { type PictionaryGame, PICTIONARY_TEXTS as T } from '@guildhall/common';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { deadline } from '../server/src/test/time-scale.ts';
import { expectNoSeriousA11y, setTheme } from './support/a11y.ts';
import { ROOT } from './support/env.ts';
import { expect, signedInContext, test } from './support/fixtures.ts';
import { isInk, PictionaryScreen } from './support/pictionary-screen.ts';
import { SHOTS_WANTED, screenshot, shot } from './support/shots.ts';

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

/** Screenshots of a player's view at desktop and phone width (looked at by hand; .tmp/screenshots). */
async function shoot(p: Player, name: string): Promise<void> {
  if (!SHOTS_WANTED) return;
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
    // Leave first: a lobby left behind would be found by the next test's Find Game for the grace.
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

/** Everyone but the drawer guesses the word, in the order given; the turn then ends for all. */
async function everyoneGuesses(drawer: Player, guessers: Player[]): Promise<string> {
  const word = (await drawer.screen.secretWord.textContent())!;
  for (const g of guessers) await g.screen.guess(word);
  return word;
}

test('[pictionary] three players: live settings, live strokes, guesses, scores 10/7/6, every player draws, Game Complete', async ({
  browser,
}) => {
  const [host, second, third] = [await player(browser), await player(browser), await player(browser)];

  await shoot(host, 'entry');
  await host.screen.findButton.click();
  await expect(host.screen.button(T.startGame)).toBeDisabled();
  await expect(host.screen.page.getByText(T.needTwoPlayers)).toBeVisible();
  await second.screen.findButton.click();
  await expect(second.screen.page.getByText(T.onlyHost)).toBeVisible();
  await expect(second.screen.page.getByText(T.waitingForHost)).toBeVisible();
  await expect(second.screen.readOnly('rounds')).toHaveText('3');

  // The host changes the settings; the other player's screen follows without a reload.
  await host.screen.slider(T.rounds).fill('1');
  await host.screen.category('Animals').check();
  await host.screen.customWords.fill('Pineapple\npineapple\n  ');
  await host.screen.button(T.updateSettings).click();
  await expect(second.screen.readOnly('rounds')).toHaveText('1');
  await expect(second.screen.readOnly('banks')).toHaveText('General, Animals');
  await expect(second.screen.readOnly('custom-count')).toHaveText('1');

  await third.screen.findButton.click();
  for (const p of [host, second, third]) await expect(p.screen.playerCount).toHaveText('3/8 Players');
  await expect(host.screen.page.getByTestId('host-marker')).toHaveCount(1);
  await shoot(host, 'lobby-host');
  await shoot(third, 'lobby-player');
  await expectNoSeriousA11y(host.screen.page);
  await shot(host.screen.page, 'pictionary-lobby');
  await host.screen.button(T.startGame).click();
  await host.screen.chooseWord();

  // Turn 1: the host draws.
  await expect(host.screen.prompt).toContainText(T.youreDrawing);
  for (const g of [second, third]) {
    await expect(g.screen.page.getByText(T.watchAndGuess)).toBeVisible();
    await expect(g.screen.round).toHaveText('R1 of 1');
    await expect(g.screen.secretWord).toHaveCount(0);
  }
  // The stroke shows on the others' canvases while the drawer still holds the button; it travels over the
  // drawer's socket (no HTTP request per batch).
  const drawPosts: string[] = [];
  host.screen.page.on('request', (r) => {
    if (r.url().endsWith('/draw')) drawPosts.push(r.url());
  });
  await host.screen.pressAndDrag([100, 300], [900, 300]);
  for (const g of [second, third])
    await expect.poll(async () => isInk(await g.screen.pixel(500, 300))).toBe(true);
  await host.screen.page.mouse.up();
  expect(drawPosts).toEqual([]);

  await second.screen.guess('definitely not it');
  for (const p of [host, second, third]) {
    await expect(p.screen.guesses.filter({ hasText: 'definitely not it' })).toHaveCount(1);
  }
  for (const p of [host, second, third])
    await expect(p.screen.guesses.first()).toContainText(second.username);

  const word = (await host.screen.secretWord.textContent())!;
  await second.screen.guess(word);
  await expect(third.screen.guesses.filter({ hasText: T.guessedTheWord(second.username) })).toHaveCount(1);
  await expect(second.screen.guesses.filter({ hasText: T.correctAnswer })).toHaveCount(1);
  await expect(host.screen.guesses.filter({ hasText: T.correctAnswer })).toHaveCount(1);

  // A guesser's screen mid-turn (the 80 s turn leaves ample time for these checks).
  await expectNoSeriousA11y(third.screen.page);
  await shot(third.screen.page, 'pictionary-guesser');
  // Screenshots of the three views mid-turn, desktop and phone.
  for (const [label, width, height] of [
    ['desktop', 1280, 800],
    ['phone', 375, 800],
  ] as const) {
    for (const [role, p] of [
      ['drawer', host],
      ['guessed', second],
      ['guesser', third],
    ] as const) {
      await p.screen.page.setViewportSize({ width, height });
      await screenshot(p.screen.page, {
        path: path.join(SHOTS, `pictionary-${label}-${role}.png`),
        fullPage: true,
      });
    }
  }

  await third.screen.guess(word);
  for (const p of [host, second, third]) {
    await expect(p.screen.points(second.username)).toHaveText('10');
    await expect(p.screen.points(third.username)).toHaveText('7');
    await expect(p.screen.points(host.username)).toHaveText('6');
  }
  await expect(third.screen.page.getByTestId('revealed-word')).toHaveText(word);

  // Turns 2 and 3: the others draw in join order (each picking a word first); everyone guesses.
  await second.screen.chooseWord();
  await expect(second.screen.prompt).toContainText(T.youreDrawing);
  await expect(host.screen.prompt).toContainText(`${second.username} is drawing`);
  await everyoneGuesses(second, [host, third]);
  await third.screen.chooseWord();
  await everyoneGuesses(third, [second, host]);

  for (const p of [host, second, third]) {
    await expect(p.screen.page.getByText(T.gameComplete)).toBeVisible();
  }
  // second 10 + 6 (drawing) + 10, host 6 + 10 + 7, third 7 + 7 + 6: ranked by points.
  await expect(host.screen.page.getByTestId('final-ranking').locator('li')).toHaveText([
    `1. ${second.username}26 pts`,
    `2. ${host.username}23 pts`,
    `3. ${third.username}20 pts`,
  ]);
  await shoot(host, 'complete');
  await expectNoSeriousA11y(host.screen.page);
  await shot(host.screen.page, 'pictionary-complete');
});

/** Every game a page received (response bodies and Socket.IO frames), as parsed JSON. */
function receivedGames(bodies: string[], frames: string[]): PictionaryGame[] {
  const games: PictionaryGame[] = [];
  const take = (v: unknown) => {
    const g = (v as { game?: PictionaryGame } | null)?.game;
    if (g && typeof g === 'object' && 'wordPattern' in g) games.push(g);
  };
  for (const b of bodies) {
    try {
      take(JSON.parse(b));
    } catch {
      // not JSON (the page, scripts)
    }
  }
  for (const f of frames) {
    const at = f.indexOf('[');
    if (at < 0) continue;
    try {
      const [event, payload] = JSON.parse(f.slice(at)) as [unknown, unknown];
      if (event === 'pictionary:state') take(payload);
    } catch {
      // Engine.IO pings and other frames
    }
  }
  return games;
}

test('[pictionary] a guesser receives the word in no response and no frame until the turn ends, nor the words offered to the drawer, nor more than the hinted letters; a reload shows the same drawing', async ({
  browser,
}) => {
  const host = await player(browser);
  const guesser = await player(browser);
  const bodies: string[] = [];
  const frames: string[] = [];
  const page = guesser.screen.page;
  page.on('response', async (res) => {
    try {
      bodies.push(await res.text());
    } catch {
      // redirects and aborted requests have no body
    }
  });
  page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(String(f.payload))));

  await host.screen.findButton.click();
  await host.screen.category('Animals').check();
  await host.screen.category('General').uncheck();
  await host.screen.slider(T.hints).fill('3');
  // A 40 s drawing time: the first of three hints comes 10 s into the turn (80 s: 20 s).
  await host.screen.slider(T.drawTime).fill('40');
  await host.screen.button(T.updateSettings).click();
  await guesser.screen.findButton.click();
  await expect(host.screen.playerCount).toHaveText('2/8 Players');
  await host.screen.button(T.startGame).click();
  // The drawer is offered three words; the guesser only learns that a word is being chosen.
  await expect(host.screen.wordOptions).toHaveCount(3);
  await expect(page.getByText(T.choosingWord(host.username))).toBeVisible();
  const offered = (await host.screen.wordOptions.allTextContents()).map((w) => w.toLowerCase());
  // The longest, so that hints come early (a 3-letter word gets one hint, halfway through).
  const longest = offered.indexOf([...offered].sort((a, b) => b.length - a.length)[0]!);
  const word = (await host.screen.chooseWord(longest)).toLowerCase();
  const unpicked = offered.filter((w) => w !== word);
  await expect(page.getByText(T.watchAndGuess)).toBeVisible();

  // A finger and a pen draw as well as the mouse (pointer events).
  await host.screen.pointerDrag([200, 100], [800, 500], 'touch');
  await host.screen.pointerDrag([200, 500], [800, 100], 'pen');
  await expect.poll(async () => isInk(await guesser.screen.pixel(500, 300))).toBe(true);
  await expect.poll(async () => isInk(await guesser.screen.pixel(350, 400))).toBe(true);
  const before = await guesser.screen.fingerprint();
  await page.reload();
  await expect.poll(() => guesser.screen.fingerprint()).toBe(before);
  expect(before.startsWith('0:')).toBe(false);
  // "Clear Canvas" blanks everyone's canvas.
  await host.screen.button(T.clearCanvas).click();
  await expect.poll(() => guesser.screen.fingerprint()).toBe('0:0');
  await guesser.screen.guess('certainly wrong');
  await expect(guesser.screen.guesses.filter({ hasText: 'certainly wrong' })).toHaveCount(1);
  // A hint: a letter of the word shows in the guesser's pattern, pushed live; a reload shows the same.
  await expect(guesser.screen.wordPattern).toHaveText(/[^_\s-]/, { timeout: deadline(30_000) });
  const hinted = await guesser.screen.wordPattern.textContent();
  await page.reload();
  await expect(guesser.screen.wordPattern).toHaveText(hinted!);

  const quoted = (w: string) => `"${w}"`;
  const leaks = [...bodies, ...frames].filter((t) =>
    offered.some((w) => t.toLowerCase().includes(quoted(w))),
  );
  expect(leaks).toEqual([]);
  expect(frames.length).toBeGreaterThan(0);
  // Every game state the guesser received this turn: no word, no offered words, and a pattern that is the
  // word's blanks with at most ⌊(letters − 1) / 2⌋ letters, each in its place, never the last one.
  const states = receivedGames(bodies, frames).filter((g) => g.turnNumber === 1 && g.turnPhase !== 'reveal');
  expect(states.length).toBeGreaterThan(0);
  let mostShown = 0;
  for (const g of states) {
    expect(g.currentWord).toBeNull();
    expect(g.wordChoices).toBeNull();
    if (g.turnPhase === 'choosing') {
      expect(g.wordPattern).toBeNull();
      continue;
    }
    const pattern = [...g.wordPattern!];
    expect(pattern.length).toBe([...word].length);
    const shown = pattern.filter((c, i) => c !== '_' && /[\p{L}\p{N}]/u.test(word[i]!));
    for (const [i, c] of pattern.entries()) if (c !== '_') expect(c).toBe(word[i]);
    expect(shown.length).toBeLessThanOrEqual(
      Math.floor(([...word].filter((c) => /[\p{L}\p{N}]/u.test(c)).length - 1) / 2),
    );
    expect(pattern.at(-1)).toBe('_');
    mostShown = Math.max(mostShown, shown.length);
  }
  expect(mostShown).toBeGreaterThan(0);
  // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, with breaks between elements
  const text = (await page.locator('body').innerText()).toLowerCase();
  for (const w of offered) expect(text).not.toMatch(new RegExp(`\\b${w.replace(/[^a-z0-9 ]/g, '.')}\\b`));

  // Once the turn is over the word does arrive (the recording would have seen it); the two words the
  // drawer did not pick never do.
  await guesser.screen.guess(word);
  await expect(page.getByTestId('revealed-word')).toHaveText(word);
  expect([...bodies, ...frames].some((t) => t.toLowerCase().includes(quoted(word)))).toBe(true);
  await expect(page.getByTestId('turn-summary')).toBeVisible();
  for (const w of unpicked)
    expect([...bodies, ...frames].filter((t) => t.toLowerCase().includes(quoted(w)))).toEqual([]);
});

/** Closes a player's tab (its socket goes with it); it is no longer closed again after the test. */
async function closeTab(p: Player): Promise<void> {
  opened.splice(opened.indexOf(p), 1);
  await p.context.close();
}

test('[pictionary] the host closes the tab in the lobby: within 30 s the others have a new host, and a newcomer joins a lobby that starts', async ({
  browser,
}) => {
  const [host, second, third] = [await player(browser), await player(browser), await player(browser)];
  await host.screen.findButton.click();
  await second.screen.findButton.click();
  await third.screen.findButton.click();
  await expect(second.screen.playerCount).toHaveText('3/8 Players');
  await expect(second.screen.page.getByTestId('readonly-settings')).toBeVisible();

  const closedAt = Date.now();
  await closeTab(host);
  await expect(second.screen.page.getByTestId('host-settings')).toBeVisible({ timeout: deadline(40_000) });
  expect(Date.now() - closedAt).toBeLessThan(30_000);
  await expect(third.screen.playerCount).toHaveText('2/8 Players');

  const newcomer = await player(browser);
  await newcomer.screen.findButton.click();
  for (const p of [second, third, newcomer]) await expect(p.screen.playerCount).toHaveText('3/8 Players');
  await second.screen.button(T.startGame).click();
  await second.screen.chooseWord();
  await expect(second.screen.prompt).toContainText(T.youreDrawing);
  await expect(newcomer.screen.page.getByText(T.watchAndGuess)).toBeVisible();
});

test('[pictionary] a guesser closes the tab mid-turn: the turn ends early once every present player has guessed', async ({
  browser,
}) => {
  const [host, stays, leaves] = [await player(browser), await player(browser), await player(browser)];
  await host.screen.findButton.click();
  await stays.screen.findButton.click();
  await leaves.screen.findButton.click();
  await expect(host.screen.playerCount).toHaveText('3/8 Players');
  await host.screen.button(T.startGame).click();
  const word = await host.screen.chooseWord();
  await stays.screen.guess(word);
  await expect(stays.screen.page.getByText(T.youGuessedIt)).toBeVisible();
  await closeTab(leaves);
  // The turn would run 80 s while the absent guesser counted; it ends once they count as gone.
  await expect(host.screen.page.getByTestId('away')).toBeVisible({ timeout: deadline(40_000) });
  await expect(stays.screen.page.getByTestId('revealed-word')).toHaveText(word);
  const left = Number((await host.screen.page.getByTestId('time-left').textContent())?.replace('s', ''));
  expect(left).toBeLessThanOrEqual(4); // the 4 s reveal, not what was left of the 80 s turn
});

test('[pictionary] a private room is joined by its invite link only; Find Game never lands in it', async ({
  browser,
}) => {
  const [host, stranger, friend] = [await player(browser), await player(browser), await player(browser)];
  await host.screen.findButton.click();
  await host.screen.page.getByTestId('private-room').check();
  await host.screen.button(T.updateSettings).click();
  const link = await host.screen.page.getByTestId('invite-link').inputValue();
  expect(link).toMatch(/\/minigames\/pictionary\?join=[0-9a-f-]{36}$/);

  await stranger.screen.findButton.click();
  await expect(stranger.screen.playerCount).toHaveText('1/8 Players');
  await expect(host.screen.playerCount).toHaveText('1/8 Players');

  await friend.screen.page.goto(link);
  await expect(friend.screen.playerCount).toHaveText('2/8 Players');
  await expect(host.screen.playerCount).toHaveText('2/8 Players');
  await expect(friend.screen.page).toHaveURL(/\/minigames\/pictionary$/);
  await shoot(host, 'private-lobby');
});

test('[pictionary] Play again brings the same three players to a new lobby with the same host and settings', async ({
  browser,
}) => {
  const [host, second, third] = [await player(browser), await player(browser), await player(browser)];
  await host.screen.findButton.click();
  await second.screen.findButton.click();
  await third.screen.findButton.click();
  await expect(host.screen.playerCount).toHaveText('3/8 Players');
  // Changed but not saved: Start Game saves it first.
  await host.screen.slider(T.rounds).fill('1');
  await host.screen.button(T.startGame).click();
  await expect(host.screen.round).toHaveText('R1 of 1');
  await host.screen.chooseWord();
  await everyoneGuesses(host, [second, third]);
  await second.screen.chooseWord();
  await everyoneGuesses(second, [host, third]);
  await third.screen.chooseWord();
  await everyoneGuesses(third, [host, second]);
  for (const p of [host, second, third]) await expect(p.screen.page.getByText(T.gameComplete)).toBeVisible();
  await shoot(second, 'complete-play-again');

  await second.screen.button(T.playAgain).click();
  for (const p of [host, second, third]) await expect(p.screen.playerCount).toHaveText('3/8 Players');
  await expect(host.screen.page.getByTestId('host-settings')).toBeVisible();
  await expect(second.screen.readOnly('rounds')).toHaveText('1');
  await expect(third.screen.page.getByTestId('lobby-players')).toContainText(host.username);
});

test('[pictionary] at 375 px the drawer reads the whole word and the guess box is in view', async ({
  browser,
}) => {
  const [host, guesser] = [await player(browser), await player(browser)];
  await host.screen.findButton.click();
  await guesser.screen.findButton.click();
  await expect(host.screen.playerCount).toHaveText('2/8 Players');
  for (const p of [host, guesser]) await p.screen.page.setViewportSize({ width: 375, height: 740 });
  await host.screen.button(T.startGame).click();
  await host.screen.chooseWord();
  await expect(host.screen.secretWord).toHaveText(/\S/);
  const fits = await host.screen.secretWord.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return el.scrollWidth <= el.clientWidth + 1 && r.left >= 0 && r.right <= window.innerWidth;
  });
  expect(fits).toBe(true);
  await guesser.screen.guessBox.focus();
  await expect(guesser.screen.guessBox).toBeInViewport();
  await screenshot(guesser.screen.page, { path: path.join(SHOTS, 'pictionary-phone-guessbox.png') });
  await screenshot(host.screen.page, { path: path.join(SHOTS, 'pictionary-phone-longword.png') });
});

// Issue 29: turns like skribbl.io — the word choice, letter hints, guessed chat, vote-kick, turn summary.
/** Screenshots of one page at the viewport it has, in both themes (looked at by hand; .tmp/screenshots). */
async function shootAt(page: Page, name: string): Promise<void> {
  if (!SHOTS_WANTED) return;
  const width = page.viewportSize()!.width;
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await page.screenshot({
      path: path.join(SHOTS, `pictionary-turns-${name}-${width}-${theme}.png`),
      fullPage: true,
    });
  }
  await setTheme(page, 'dark');
}

/** Screenshots of one page at 1280 and 375 px in both themes. */
async function shootPage(page: Page, name: string): Promise<void> {
  if (!SHOTS_WANTED) return;
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await shootAt(page, name);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('[pictionary] the drawer picks one of three words; a hint shows guessers a letter but not the word; players who guessed chat among themselves; votes to kick show; the turn summary lists the points', async ({
  browser,
}) => {
  const [host, second, third] = [await player(browser), await player(browser), await player(browser)];
  await host.screen.findButton.click();
  await host.screen.category('Animals').check();
  await host.screen.category('General').uncheck();
  await expect(host.screen.slider(T.hints)).toHaveValue('2');
  await host.screen.slider(T.hints).fill('3');
  await expect(host.screen.slider(T.drawTime)).toHaveValue('80');
  await host.screen.slider(T.drawTime).fill('50');
  await host.screen.button(T.updateSettings).click();
  await second.screen.findButton.click();
  await third.screen.findButton.click();
  await expect(second.screen.page.getByTestId('ro-hints')).toHaveText('3');
  await expect(second.screen.page.getByTestId('ro-draw-time')).toHaveText(T.drawTimeValue(50));
  await expect(host.screen.playerCount).toHaveText('3/8 Players');
  // A second tab of the drawer at 375 px, opened beforehand: the choice lasts 15 s, enough for screenshots
  // at both widths at once but not for loading a page as well on a busy machine.
  const phone = await host.context.newPage();
  await phone.setViewportSize({ width: 375, height: 800 });
  await phone.goto('/minigames/pictionary');
  await expect(phone.getByTestId('host-settings')).toBeVisible();
  await host.screen.button(T.startGame).click();

  // The choice: three words to the drawer; the others see that a word is being chosen, and no word.
  await expect(host.screen.wordOptions).toHaveCount(3);
  for (const g of [second, third]) {
    await expect(g.screen.page.getByText(T.choosingWord(host.username))).toBeVisible();
    await expect(g.screen.wordOptions).toHaveCount(0);
  }
  const offered = await host.screen.wordOptions.allTextContents();
  await expect(phone.getByTestId('word-option')).toHaveCount(3);
  await Promise.all([shootAt(host.screen.page, 'choice'), shootAt(phone, 'choice')]);
  await expectNoSeriousA11y(host.screen.page);
  // The longest, so that hints come early; on a slow machine the server may have picked one meanwhile.
  const longest = offered.indexOf([...offered].sort((a, b) => b.length - a.length)[0]!);
  const word = (await host.screen.wordOptions.count())
    ? await host.screen.chooseWord(longest)
    : (await host.screen.secretWord.textContent())!;
  expect(offered).toContain(word);
  await expect(host.screen.secretWord).toHaveText(word);
  await expect(third.screen.wordPattern).toHaveText(word.replace(/[\p{L}\p{N}]/gu, '_'));

  // A guesser who got it joins the chat with the drawer; the one still guessing has no chat and sees none of it.
  await second.screen.guess(word);
  await expect(second.screen.page.getByTestId('guessed-chat')).toBeVisible();
  await expect(third.screen.page.getByTestId('guessed-chat')).toHaveCount(0);
  await second.screen.page.getByPlaceholder(T.guessedChatPlaceholder).fill('those ears gave it away');
  await second.screen.page.getByRole('button', { name: 'Send message' }).click();
  await expect(host.screen.page.getByTestId('chat-message')).toContainText('those ears gave it away');
  await host.screen.page.getByPlaceholder(T.guessedChatPlaceholder).fill('thanks!');
  await host.screen.page.getByRole('button', { name: 'Send message' }).click();
  await expect(second.screen.page.getByTestId('chat-message')).toHaveCount(2);

  // A vote to kick shows votes/needed on every screen (a majority of the two others: 2).
  await third.screen.page.getByRole('button', { name: `${T.voteKick}: ${second.username}` }).click();
  await expect(
    host.screen.page.getByTestId(`player-${second.username}`).getByTestId('kick-votes'),
  ).toHaveText('1/2');
  await expect(second.screen.page.getByTestId('kick-votes')).toHaveText(T.kickVotes(1, 2));

  // A hint: a letter shows in the guessers' pattern (3 hints in 50 s: the first 12.5 s into the turn), never
  // the word.
  await expect(third.screen.wordPattern).toHaveText(/[^_\s-]/, { timeout: deadline(30_000) });
  const pattern = (await third.screen.wordPattern.textContent())!;
  expect(pattern).not.toBe(word);
  for (const [i, c] of [...pattern].entries()) if (c !== '_') expect(c).toBe(word[i]);
  // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, with breaks between elements
  const text = await third.screen.page.locator('body').innerText();
  expect(text.toLowerCase()).not.toContain(word.toLowerCase());
  expect(text).not.toContain('those ears gave it away');
  await shootPage(third.screen.page, 'hint');
  await shootPage(second.screen.page, 'guessed-chat');

  // The last guess ends the turn: every screen lists the points gained (10, 7, and the drawer 6). The reveal
  // lasts 4 s: one screenshot on each of four screens at once (1280 and 375 px, both themes).
  const views = [
    { page: host.screen.page, width: 1280, theme: 'light' },
    { page: third.screen.page, width: 1280, theme: 'dark' },
    { page: second.screen.page, width: 375, theme: 'light' },
    { page: phone, width: 375, theme: 'dark' },
  ] as const;
  for (const v of views) {
    await v.page.setViewportSize({ width: v.width, height: 800 });
    await setTheme(v.page, v.theme);
  }
  await third.screen.guess(word);
  const expected = [`${second.username}+10`, `${third.username}+7`, `${host.username}+6`];
  await Promise.all(views.map((v) => expect(v.page.getByTestId('turn-summary-row')).toHaveText(expected)));
  await Promise.all(
    views.map((v) =>
      screenshot(v.page, {
        path: path.join(SHOTS, `pictionary-turns-summary-${v.width}-${v.theme}.png`),
        fullPage: true,
      }),
    ),
  );
  await phone.close();
});

// In this file, not one of its own: Pictionary tests of two files would run at once (two workers) and Find
// Game would mix their players.
test('[pictionary] undo and fill by the drawer show the same pixels on a guesser’s canvas, live and after a reload; a stroke that leaves and re-enters is one stroke', async ({
  browser,
}) => {
  const [host, guesser] = [await player(browser), await player(browser)];
  await host.screen.findButton.click();
  await guesser.screen.findButton.click();
  await expect(host.screen.playerCount).toHaveText('2/8 Players');
  await host.screen.button(T.startGame).click();
  await host.screen.chooseWord();
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

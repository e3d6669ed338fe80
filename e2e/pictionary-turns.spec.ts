import path from 'node:path';
import { PICTIONARY_TEXTS as T } from '@guildhall/common';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expectNoSeriousA11y, setTheme } from './support/a11y.ts';
import { ROOT } from './support/env.ts';
import { expect, signedInContext, test } from './support/fixtures.ts';
import { PictionaryScreen } from './support/pictionary-screen.ts';

/** Issue 29: turns like skribbl.io — the word choice, letter hints, guessed chat, vote-kick, turn summary. */
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

/** Screenshots of one page at the viewport it has, in both themes (looked at by hand; .tmp/screenshots). */
async function shootAt(page: Page, name: string): Promise<void> {
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

/** Screenshots at 1280 and 375 px in both themes. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await shootAt(page, name);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('[pictionary] the drawer picks one of three words; a hint shows guessers a letter but not the word; players who guessed chat among themselves; votes to kick show; the turn summary lists the points', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const [host, second, third] = [await player(browser), await player(browser), await player(browser)];
  await host.screen.findButton.click();
  await host.screen.category('Animals').check();
  await host.screen.category('General').uncheck();
  await expect(host.screen.slider(T.hints)).toHaveValue('2');
  await host.screen.slider(T.hints).fill('3');
  await host.screen.button(T.updateSettings).click();
  await second.screen.findButton.click();
  await third.screen.findButton.click();
  await expect(second.screen.page.getByTestId('ro-hints')).toHaveText('3');
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

  // A hint: a letter shows in the guessers' pattern (3 hints: the first 20 s into the turn), never the word.
  await expect(third.screen.wordPattern).toHaveText(/[^_\s-]/, { timeout: 60_000 });
  const pattern = (await third.screen.wordPattern.textContent())!;
  expect(pattern).not.toBe(word);
  for (const [i, c] of [...pattern].entries()) if (c !== '_') expect(c).toBe(word[i]);
  // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, with breaks between elements
  const text = await third.screen.page.locator('body').innerText();
  expect(text.toLowerCase()).not.toContain(word.toLowerCase());
  expect(text).not.toContain('those ears gave it away');
  await shoot(third.screen.page, 'hint');
  await shoot(second.screen.page, 'guessed-chat');

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
      v.page.screenshot({
        path: path.join(SHOTS, `pictionary-turns-summary-${v.width}-${v.theme}.png`),
        fullPage: true,
      }),
    ),
  );
  await phone.close();
});

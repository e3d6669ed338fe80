import { TICTACTOE_TEXTS as T } from '@guildhall/common';
import type { ElementHandle, Locator, Page } from '@playwright/test';
import { expectNoSeriousA11y } from './support/a11y.ts';
import { createMember } from './support/db.ts';
import { BASE_URL } from './support/env.ts';
import { expect, randomDiscordId, setDiscordUser, signedInContext, test } from './support/fixtures.ts';
import { shot } from './support/shots.ts';
import { TicTacToeScreen } from './support/tictactoe-screen.ts';

// Issue 17: the whole member journey with the keyboard only. The page counts every pointer event; it
// must end at zero. Each stop checks that the focused element shows focus (:focus-visible).

/**
 * The focused element shows a ring a member can see (issue 31): it matches :focus-visible and it (or,
 * for a visually hidden control such as a radio drawn as a card, its parent) has a solid outline of at
 * least 2 px whose colour is not the page's background.
 */
async function expectVisibleRing(page: Page): Promise<string> {
  const ring = await focusStop(page, null);
  expect(ring.ok, `visible focus ring on ${ring.what}`).toBe(true);
  return ring.what;
}

/** The focused element's ring (see above) and whether it is `target`, read in one round trip. */
function focusStop(page: Page, target: ElementHandle | null) {
  return page.evaluate((t) => {
    const detached = t !== null && !t.isConnected;
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body)
      return { ok: false, focused: false, reached: false, detached, what: 'nothing focused' };
    const drawn = el.getBoundingClientRect().width <= 1 && el.parentElement ? el.parentElement : el;
    const style = getComputedStyle(drawn);
    const bg = getComputedStyle(document.body).backgroundColor;
    const what = `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`;
    // A date field has its focus inside (Chromium): the field matches :focus-within, not :focus-visible.
    const ok =
      (el.matches(':focus-visible') || el.matches('input:focus-within')) &&
      style.outlineStyle === 'solid' &&
      Number.parseFloat(style.outlineWidth) >= 2 &&
      style.outlineColor !== bg &&
      style.outlineColor !== 'rgba(0, 0, 0, 0)';
    const outline = `${what} outline ${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`;
    return { ok, focused: true, reached: el === t, detached, what: outline };
  }, target);
}

/**
 * Playwright turns on the page's file-chooser interception when a listener is first added, and does not wait
 * for it: an Enter pressed right after waitForEvent('filechooser') could open the chooser before the
 * interception took effect, so no event came (seen in about one run in three). A listener from the page's
 * start keeps it on.
 */
function interceptFileChoosers(page: Page): void {
  page.on('filechooser', () => undefined);
}

/** Presses Tab until `target` has focus (at most `max` times), checking the ring at every stop. */
async function tabTo(page: Page, target: Locator, max = 250): Promise<void> {
  let handle = await target.elementHandle();
  try {
    for (let i = 0; i < max; i++) {
      await page.keyboard.press('Tab');
      const stop = await focusStop(page, handle);
      if (stop.focused) expect(stop.ok, `visible focus ring on ${stop.what}`).toBe(true);
      if (stop.reached) return;
      // The page re-rendered the target: take the element that is there now.
      if (stop.detached) {
        await handle.dispose();
        handle = await target.elementHandle();
        if (await handle.evaluate((el) => el === document.activeElement)) return;
      }
    }
  } finally {
    await handle.dispose();
  }
  throw new Error(`Tab never reached ${target}`);
}

async function expectFocused(target: Locator) {
  await expect(target).toBeFocused();
  await expectVisibleRing(target.page());
}

test('keyboard only: sign in, files, upload, share via menu, copy, and a whole tic-tac-toe game', async ({
  browser,
}) => {
  // A ring check at every Tab stop, and axe at the end, on a machine other suites share.
  const id = randomDiscordId();
  const m = await createMember({ discord_id: id, username: `keys_${id.slice(-6)}` });
  const context = await browser.newContext({ baseURL: BASE_URL });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
  await setDiscordUser(context, { id, username: m.username });
  await context.addInitScript(() => {
    const w = window as unknown as { pointerEvents: number };
    w.pointerEvents = 0;
    for (const type of ['pointerdown', 'mousedown', 'pointerup'])
      window.addEventListener(type, () => w.pointerEvents++, true);
  });
  const page = await context.newPage();
  interceptFileChoosers(page);
  const pointerEvents = () =>
    page.evaluate(() => (window as unknown as { pointerEvents: number }).pointerEvents);

  // Sign in with Discord.
  await page.goto('/login');
  await tabTo(page, page.getByRole('button', { name: 'Continue with Discord' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`${BASE_URL}/dashboard`);

  // Files: open, upload through the picker with Enter.
  await tabTo(page, page.getByTestId('card-files'));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`${BASE_URL}/filesystem`);
  const name = `keys-${id.slice(-6)}.txt`;
  await tabTo(page, page.getByRole('button', { name: 'Upload', exact: true }));
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (await chooser).setFiles({ name, mimeType: 'text/plain', buffer: Buffer.from('typed, not clicked') });
  const trigger = page.getByRole('button', { name: `Actions for ${name}` });
  await expect(trigger).toBeAttached();
  await shot(page, 'files-transfer-panel');

  // Share through the item menu: focus moves into the menu, arrows move, Escape returns focus.
  // Past every item at the root (parallel tests add folders; each has a checkbox, a name and a menu).
  await tabTo(page, trigger, 120);
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expectFocused(trigger);
  await page.keyboard.press('Enter');
  // Each arrow press waits for the focus it moves, so no key lands before the menu has taken focus.
  const items = menu.getByRole('menuitem');
  await expect(items.first()).toBeFocused();
  const labels = (await items.allTextContents()).map((t) => t.trim());
  const shareAt = labels.indexOf('Share');
  expect(shareAt).toBeGreaterThanOrEqual(0);
  for (let i = 1; i <= shareAt; i++) {
    await page.keyboard.press('ArrowDown');
    await expect(items.nth(i)).toBeFocused();
  }
  const share = menu.getByRole('menuitem', { name: 'Share' });
  await expect(share).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await tabTo(page, dialog.getByRole('button', { name: 'Create Share Link' }));
  await page.keyboard.press('Enter');
  const copy = dialog.getByRole('button', { name: 'Copy link' }).first();
  await expect(copy).toBeVisible();
  await tabTo(page, copy);
  await page.keyboard.press('Enter');
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('/shared/');
  await expectNoSeriousA11y(page);
  await shot(page, 'share-dialog');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // A whole tic-tac-toe game: this page is X (finds first); the opponent is another member.
  await page.goto('/minigames/tic-tac-toe');
  await tabTo(page, page.getByRole('button', { name: T.findGame, exact: true }));
  await page.keyboard.press('Enter');
  const x = new TicTacToeScreen(page, '');
  await expect(x.headline).toHaveText(T.waitingForOpponent);
  const other = await signedInContext(browser);
  const o = new TicTacToeScreen(other.page, other.member.token);
  await o.open();
  await o.findButton.click();
  await expect(x.status).toHaveText('In Progress');

  await tabTo(page, x.cell(0));
  await page.keyboard.press('Enter');
  await expect(x.cell(0)).toHaveAttribute('data-mark', 'X');
  await expectFocused(x.cell(0)); // focus stays on the cell just played
  await o.cell(3).click();
  await expect(x.cell(3)).toHaveAttribute('data-mark', 'O');
  await page.keyboard.press('ArrowRight');
  await expectFocused(x.cell(1));
  await page.keyboard.press('Enter');
  await expect(x.cell(1)).toHaveAttribute('data-mark', 'X');
  await o.cell(4).click();
  await expect(x.cell(4)).toHaveAttribute('data-mark', 'O');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(x.cell(2)).toHaveAttribute('data-mark', 'X');
  await expect(x.status).toHaveText('Finished');
  await expectFocused(x.cell(2));
  await expectNoSeriousA11y(page);
  await shot(page, 'tictactoe-won');

  expect(await pointerEvents()).toBe(0);
  await o.cleanUp().catch(() => undefined);
  await other.context.close();
  await context.close();
});

test('[admin] keyboard only, in both themes: login → dashboard → files → share dialog → admin, a visible ring at every stop', async ({
  browser,
}) => {
  for (const theme of ['dark', 'light'] as const) {
    const id = randomDiscordId();
    const m = await createMember({
      discord_id: id,
      username: `ring_${theme}_${id.slice(-6)}`,
      access_level: 'admin',
    });
    const context = await browser.newContext({ baseURL: BASE_URL, colorScheme: theme });
    await setDiscordUser(context, { id, username: m.username });
    const page = await context.newPage();
    interceptFileChoosers(page);

    // Login: the first Tab reaches the skip link, then the sign-in controls; the page has its own title.
    await page.goto('/login');
    await expect(page).toHaveTitle('Login · Guildhall');
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await expectVisibleRing(page);
    await page.keyboard.press('Enter');
    await expect(page.locator('#main-content')).toBeFocused();
    await tabTo(page, page.getByLabel('Access Code'));
    await page.keyboard.press('Shift+Tab');
    await expectFocused(page.getByRole('button', { name: 'Continue with Discord' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`${BASE_URL}/dashboard`);
    await expect(page).toHaveTitle('Dashboard · Guildhall');

    // `?` lists the shortcuts in one dialog; Escape closes it.
    await page.keyboard.press('Shift+?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(help).toBeVisible();
    await expect(help.getByTestId('shortcuts')).toContainText('Close a dialog or menu');
    await expectVisibleRing(page);
    await shot(page, `shortcuts-${theme}`);
    await page.keyboard.press('Escape');
    await expect(help).toHaveCount(0);

    // Files: upload with the keyboard, then the share dialog through the item menu.
    await tabTo(page, page.getByTestId('card-files'));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`${BASE_URL}/filesystem`);
    await expect(page).toHaveTitle('File System · Guildhall');
    const name = `ring-${theme}-${id.slice(-6)}.txt`;
    await tabTo(page, page.getByRole('button', { name: 'Upload', exact: true }));
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Enter');
    await (await chooser).setFiles({ name, mimeType: 'text/plain', buffer: Buffer.from('ring check') });
    const trigger = page.getByRole('button', { name: `Actions for ${name}` });
    await expect(trigger).toBeAttached();
    await tabTo(page, trigger, 120); // past every item at the root (see above)
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    const items = menu.getByRole('menuitem');
    await expect(items.first()).toBeFocused();
    const labels = (await items.allTextContents()).map((t) => t.trim());
    for (let i = 1; i <= labels.indexOf('Share'); i++) {
      await page.keyboard.press('ArrowDown');
      await expect(items.nth(i)).toBeFocused();
    }
    await expectVisibleRing(page);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await tabTo(page, dialog.getByRole('button', { name: 'Create Share Link' }));
    await shot(page, `share-dialog-focus-${theme}`);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expectFocused(trigger);

    // A destructive question opens on Cancel: Enter keeps the file.
    await page.keyboard.press('Enter');
    await expect(items.first()).toBeFocused();
    expect(labels.at(-1)).toBe('Delete');
    await page.keyboard.press('End');
    await expect(menu.getByRole('menuitem', { name: 'Delete' })).toBeFocused();
    await expectVisibleRing(page);
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog');
    await expectFocused(confirm.getByRole('button', { name: 'Cancel' }));
    await page.keyboard.press('Enter');
    await expect(confirm).toHaveCount(0);
    await expect(trigger).toBeAttached();

    // Admin: Edit starts in the Username field, Escape cancels and returns to Edit.
    await page.goto('/admin');
    await expect(page).toHaveTitle('Admin Panel · Guildhall');
    const edit = page.getByRole('button', { name: `Edit ${m.username}` });
    await tabTo(page, edit, 400);
    await page.keyboard.press('Enter');
    const row = page.getByTestId(`user-row-${id}`);
    await expect(row).toHaveAttribute('data-editing', 'true');
    await expectFocused(row.getByLabel('Username'));
    await page.keyboard.press('Tab');
    await expectVisibleRing(page);
    await page.keyboard.press('Escape');
    await expect(row).not.toHaveAttribute('data-editing', 'true');
    await expectFocused(edit);
    await shot(page, `admin-focus-${theme}`);
    await context.close();
  }
});

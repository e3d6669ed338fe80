import {
  DISCORD_GAME_TEXTS,
  DISCORD_NOTE_TEXTS,
  DISCORD_NOTES_DEFAULTS,
  DISCORD_TEXTS,
} from '@guildhall/common';
import { expectNoSeriousA11y } from './support/a11y.ts';
import { AdminPanel } from './support/admin-panel.ts';
import { createMember } from './support/db.ts';
import { botMessages, NotesCard, runSlash, saveNotes } from './support/discord-side.ts';
import { BASE_URL } from './support/env.ts';
import { expect, setDiscordUser, signedInContext, test } from './support/fixtures.ts';
import { TEXT_CHANNELS } from './support/music-env.ts';
import { PictionaryScreen } from './support/pictionary-screen.ts';
import { shotOf } from './support/shots.ts';

// The portal inside Discord (issue 44), as members and admins meet it: a slash command's invite followed in
// a browser, and the admin panel's Channel notes and commands cards. Commands reach the portal's real bot
// through the fake Discord (its control endpoint dispatches INTERACTION_CREATE).

/** Discord's markdown escaping of a name (the e2e usernames carry underscores). */
const md = (name: string) => name.replace(/_/g, '\\_');

let adminToken = '';
test.beforeAll(async () => {
  adminToken = (await createMember({ access_level: 'admin' })).token;
});
test.afterEach(async () => {
  await saveNotes(adminToken, DISCORD_NOTES_DEFAULTS);
});

test('[discord] /pictionary posts a lobby whose Join button brings a signed-out member into it after sign-in', async ({
  browser,
}) => {
  const host = await createMember({ access_level: 'user' });
  const invite = await runSlash({ id: host.userId, username: host.username }, 'pictionary');
  expect(invite.content).toBe(DISCORD_GAME_TEXTS.pictionaryInvite(md(host.username)));
  expect(invite.flags).toBe(0); // posted for the channel, not only for the host
  const [join] = invite.buttons;
  expect(join).toMatchObject({ type: 2, style: 5, label: DISCORD_TEXTS.join });
  const url = join?.url ?? '';
  expect(url).toMatch(new RegExp(`^${BASE_URL}/minigames/pictionary\\?join=[0-9a-f-]{36}$`));
  // The host makes it private (as on the web): Find Game of the Pictionary tests running alongside never
  // fills it, and an invite link still joins a private lobby.
  const lobbyId = new URL(url).searchParams.get('join') ?? '';
  const privately = await fetch(`${BASE_URL}/api/games/pictionary/${lobbyId}/settings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      maxRounds: 3,
      maxPlayers: 8,
      wordBanks: ['general'],
      customWords: [],
      isPrivate: true,
    }),
  });
  expect(privately.status).toBe(200);

  // A member who is not signed in in this browser follows the button: sign-in first, then the lobby.
  const guest = await createMember({ access_level: 'viewer' });
  const context = await browser.newContext({ baseURL: BASE_URL });
  await setDiscordUser(context, { id: guest.userId, username: guest.username });
  const page = await context.newPage();
  await page.goto(url);
  await expect(page).toHaveURL(/\/login\?next=/);
  await page.getByRole('button', { name: 'Continue with Discord' }).click();
  const screen = new PictionaryScreen(page);
  await expect(screen.playerCount).toHaveText('2/8 Players');
  await expect(page.getByTestId('lobby-players')).toContainText(host.username);
  await expect(page.getByTestId('lobby-players')).toContainText(guest.username);
  await expect(page).toHaveURL(`${BASE_URL}/minigames/pictionary`);
  await context.close();
  // Both leave: the lobby does not linger.
  for (const token of [guest.token, host.token])
    await fetch(`${BASE_URL}/api/games/pictionary/${lobbyId}/leave`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
});

test('[admin] channel notes: off by default; a channel from the bot’s view and events saved; the test note arrives mentioning nobody', async ({
  browser,
}) => {
  const { page, context, member } = await signedInContext(browser, { access_level: 'admin' });
  const panel = new AdminPanel(page);
  await panel.open();
  const card = new NotesCard(page);
  await expect(card.card.getByRole('heading', { name: 'Channel notes' })).toBeVisible();
  await expect(card.card.getByText('Off', { exact: true })).toBeVisible();
  await expect(card.channel).toHaveValue('');
  await expect(card.channel.locator('option')).toHaveText([
    'No channel (no notes)',
    `#${TEXT_CHANNELS.general.name}`,
    `#${TEXT_CHANNELS.portalNotes.name}`,
  ]);
  for (const label of ['A file shared by public link', 'A game lobby opened', 'A song requested'])
    await expect(card.event(label)).not.toBeChecked();
  await expect(card.testNote).toBeDisabled();

  await card.channel.selectOption({ label: `#${TEXT_CHANNELS.portalNotes.name}` });
  await card.event('A file shared by public link').check();
  await card.event('A game lobby opened').check();
  await expect(card.card.getByRole('status')).toHaveText('Unsaved changes');
  await expect(card.testNote).toBeDisabled(); // it checks what is saved
  await shotOf(card.card, 'discord-notes-card-draft');
  await card.save.click();
  await expect(card.card.getByText('On', { exact: true })).toBeVisible();

  await card.testNote.click();
  await expect(page.getByText(DISCORD_NOTE_TEXTS.testSent)).toBeVisible();
  await expect
    .poll(() => botMessages(TEXT_CHANNELS.portalNotes.id))
    .toContainEqual({
      content: DISCORD_NOTE_TEXTS.test(md(member.username)),
      allowed_mentions: { parse: [] },
    });
  await shotOf(card.card, 'discord-notes-card-saved');
  await expectNoSeriousA11y(page);

  // The commands card lists every command with what it does.
  const commands = page.getByTestId('discord-commands');
  await expect(commands.getByText('/pictionary', { exact: true })).toBeVisible();
  await expect(commands.getByText('/share <file>', { exact: true })).toBeVisible();
  await shotOf(commands, 'discord-commands-card');
  await context.close();
});

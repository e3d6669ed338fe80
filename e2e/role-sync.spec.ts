import { ROLE_SYNC_TEXTS } from '@guildhall/common';
import type { Browser } from '@playwright/test';
import { expectNoSeriousA11y } from './support/a11y.ts';
import { AdminPanel } from './support/admin-panel.ts';
import { createMember } from './support/db.ts';
import { BASE_URL } from './support/env.ts';
import { expect, randomDiscordId, setDiscordUser, signedInContext, test } from './support/fixtures.ts';
import { GUILD_ROLES, MUSIC_GUILD } from './support/music-env.ts';
import {
  failGuildRoutes,
  leaveGuild,
  RoleSyncCard,
  resetRoleSync,
  saveRoleSync,
  setGuildMember,
} from './support/role-sync.ts';
import { shot, shotOf } from './support/shots.ts';

// Roles from Discord (issue 43), as an admin drives it in the panel and a member sees it. The sync is one
// setting of the whole portal: each test starts from the settings it needs and leaves the sync off again.
// Switching it on changes no other test's members: in the fake server every user is a member with no role
// (openMembership), and no-role members under "pending" keep the level an admin gave them.

let adminToken = '';
test.beforeAll(async () => {
  adminToken = (await createMember({ access_level: 'admin' })).token;
});
test.afterEach(async () => {
  await resetRoleSync(adminToken);
});

/** A member of the e2e server with these roles who signs in with Discord; resolves once they are in. */
async function signInAsGuildMember(browser: Browser, prefix: string, roles: string[], nick?: string) {
  const id = randomDiscordId();
  const username = `${prefix}_${id.slice(-6)}`;
  await setGuildMember(id, username, roles, nick);
  const context = await browser.newContext({ baseURL: BASE_URL });
  await setDiscordUser(context, { id, username });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continue with Discord' }).click();
  // Signed in: the navigation bar names them, by their server nickname where they have one (a viewer lands
  // on the home page, the others on the dashboard).
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: nick ?? username }),
  ).toBeVisible();
  return { id, username, page, context };
}

async function openCard(browser: Browser) {
  const { page, context } = await signedInContext(browser, { access_level: 'admin' });
  const panel = new AdminPanel(page);
  await panel.open();
  const card = new RoleSyncCard(page);
  await expect(card.roleLevel(GUILD_ROLES.mod.name)).toBeVisible();
  return { panel, card, page, context };
}

test('[admin] switches the sync on, maps Mod to Moderator and saves; a member with Mod signs in as a moderator and their settings name the role', async ({
  browser,
}) => {
  const { panel, card, page, context } = await openCard(browser);
  await expect(card.card.getByRole('heading', { name: 'Roles from Discord' })).toBeVisible();
  await expect(card.card.getByText('Off', { exact: true })).toBeVisible();
  await expect(card.card.getByTestId('role-sync-server')).toHaveText(`Server: ${MUSIC_GUILD.name}`);
  await expect(card.card.getByTestId('role-sync-events')).toHaveText(
    'Member events: off (the periodic re-check finds role changes)',
  );
  // The bot's view of the server: every role by name, highest first, the bot's own marked as such.
  const selects = card.roles.getByRole('combobox');
  await expect(selects).toHaveCount(6);
  expect(await selects.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual(
    ['Guildhall Music', 'Admins', 'Mod', 'Member', 'Guest', 'Muted'].map((r) => `Level of role ${r}`),
  );
  await expect(card.roles.getByRole('listitem').first()).toContainText('Managed by an integration');
  await expect(card.enabled).not.toBeChecked();
  await expect(card.brake).toHaveValue('5');
  await expect(card.interval).toHaveValue('600');
  await expect(card.card.getByText('Every member is looked up again within 10 min.')).toBeVisible();
  await expect(card.save).toBeDisabled();

  // Nothing is saved until Save: the picks are a draft.
  await card.enabled.check();
  await card.roleLevel('Mod').selectOption({ label: 'Moderator' });
  await expect(card.card.getByRole('status')).toHaveText('Unsaved changes');
  await shotOf(card.card, 'role-sync-card-draft');
  await card.save.click();
  await expect(page.getByText('Role sync settings saved')).toBeVisible();
  await expect(card.card.getByText('On', { exact: true })).toBeVisible();
  await expect(card.save).toBeDisabled();

  // Saved: a reload shows the same.
  await page.reload();
  await expect(card.enabled).toBeChecked();
  await expect(card.roleLevel('Mod')).toHaveValue('moderator');
  await expect(card.roleLevel('Member')).toHaveValue('');
  await expectNoSeriousA11y(page);

  // A member holding Mod in Discord is a moderator from their first sign-in, and their settings say why,
  // under the nickname they have in the server.
  const member = await signInAsGuildMember(browser, 'mod', [GUILD_ROLES.mod.id], 'Mira of the Hall');
  await member.page.goto('/settings');
  await expect(member.page.getByTestId('role-source')).toHaveText('Level from the Discord role Mod');
  await expect(member.page.getByRole('heading', { level: 1 })).toHaveText('Mira of the Hall');
  await expect(member.page.getByText(`Nickname in ${MUSIC_GUILD.name}`)).toBeVisible();
  await expect(member.page.getByText('Moderator', { exact: true })).toBeVisible();
  await expectNoSeriousA11y(member.page);
  await shot(member.page, 'role-sync-settings');
  // The nickname is how everyone sees them: their own navigation bar and greeting…
  await expect(member.page.getByTestId('nav-username')).toHaveText('Mira of the Hall');
  await member.page.goto('/dashboard');
  await expect(member.page.getByRole('heading', { name: 'Welcome back, Mira of the Hall!' })).toBeVisible();
  await shotOf(member.page.getByRole('banner'), 'role-sync-navbar');
  // …and the admins' user list, with the account's username beside it.
  await panel.open();
  const row = panel.userRow(member.id);
  await expect(row).toContainText('Mira of the Hall');
  await expect(row.getByTestId('user-row-username')).toHaveText(`@${member.username}`);
  await shotOf(row, 'role-sync-user-row');
  await member.context.close();
  await context.close();
});

test('[member] a Discord account outside the server is refused by a page naming the server; once they join, they get in', async ({
  browser,
}) => {
  await saveRoleSync(adminToken, {
    enabled: true,
    roleLevels: [{ roleId: GUILD_ROLES.member.id, level: 'user' }],
  });
  const id = randomDiscordId();
  const username = `outsider_${id.slice(-6)}`;
  await leaveGuild(id);
  const context = await browser.newContext({ baseURL: BASE_URL });
  await setDiscordUser(context, { id, username });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continue with Discord' }).click();
  await expect(page.getByRole('heading', { name: ROLE_SYNC_TEXTS.notMemberHeading })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(ROLE_SYNC_TEXTS.notMemberDetail(MUSIC_GUILD.name));
  await expectNoSeriousA11y(page);
  await shot(page, 'role-sync-not-member');

  // They join the server with the Member role: the next sign-in lets them in as a user.
  await setGuildMember(id, username, [GUILD_ROLES.member.id]);
  await page.getByRole('link', { name: 'Back to sign-in' }).click();
  await page.getByRole('button', { name: 'Continue with Discord' }).click();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: username }),
  ).toBeVisible();
  await context.close();
  // Their level came from the Member role: a later test's mapping change must not count them.
  const removed = await fetch(`${BASE_URL}/api/users/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(removed.status).toBe(200);
});

test('[admin] a mapping change that would demote more members than the brake is held with its preview until the admin applies it', async ({
  browser,
}) => {
  await saveRoleSync(adminToken, {
    enabled: true,
    roleLevels: [{ roleId: GUILD_ROLES.member.id, level: 'user' }],
  });
  const member = await signInAsGuildMember(browser, 'held', [GUILD_ROLES.member.id]);
  await member.context.close();

  const { panel, card, page, context } = await openCard(browser);
  await card.brake.fill('0');
  await card.roleLevel('Member').selectOption({ label: 'No level' });
  await card.save.click();

  await expect(card.held.getByRole('heading')).toHaveText(
    '1 demotion is held for your confirmation: the sync would demote more than 0 at once.',
  );
  await expect(card.held.getByTestId(`role-sync-held-${member.id}`)).toHaveText(
    `${member.username}UserNo accessrole mapping changed: role Member no longer mapped`,
  );
  // Nothing changed yet: the member is still approved.
  await expect(panel.userRow(member.id)).toBeVisible();
  await shotOf(card.card, 'role-sync-card-held');
  await expectNoSeriousA11y(page);

  await card.held.getByRole('button', { name: 'Apply these changes' }).click();
  await expect(page.getByText('Held changes applied')).toBeVisible();
  await expect(card.held).toBeHidden();
  // Under "pending", a member whose level came from a role waits for an admin again.
  await page.reload();
  await expect(panel.pendingRow(member.id)).toBeVisible();
  await context.close();
});

test('[admin] discarding held demotions keeps everyone and pauses the sync until the settings are saved', async ({
  browser,
}) => {
  await saveRoleSync(adminToken, {
    enabled: true,
    roleLevels: [{ roleId: GUILD_ROLES.guest.id, level: 'viewer' }],
  });
  const member = await signInAsGuildMember(browser, 'kept', [GUILD_ROLES.guest.id]);
  await member.context.close();
  await saveRoleSync(adminToken, { demotionBrake: 0, denyRoles: [GUILD_ROLES.guest.id], roleLevels: [] });

  const { panel, card, context } = await openCard(browser);
  await expect(card.held.getByTestId(`role-sync-held-${member.id}`)).toHaveText(
    `${member.username}ViewerNo accessrole mapping changed: has the deny role Guest in Discord`,
  );
  await card.held.getByRole('button', { name: 'Discard and pause' }).click();
  await expect(card.held).toBeHidden();
  await expect(card.paused).toHaveText(
    'Role sync is paused after held changes were discarded. Save the settings to resume it.',
  );
  await expect(card.card.getByText('Paused', { exact: true })).toBeVisible();
  await expect(panel.userRow(member.id)).toBeVisible();
  await shotOf(card.card, 'role-sync-card-paused');

  await card.interval.fill('900');
  await card.save.click();
  await expect(card.paused).toBeHidden();
  await expect(card.card.getByText('On', { exact: true })).toBeVisible();
  await context.close();
});

test('[admin] the form refuses a brake or an interval out of range before saving', async ({ browser }) => {
  const { card, context } = await openCard(browser);
  await card.interval.fill('5');
  await expect(card.card.getByText('Every member is looked up again within 5 s.')).toBeVisible();
  await card.save.click();
  await expect(card.card.getByRole('alert')).toHaveText(
    'The re-check interval must be whole seconds from 10 to 86400.',
  );
  await card.interval.fill('60');
  await card.brake.fill('-1');
  await card.save.click();
  await expect(card.card.getByRole('alert')).toHaveText(
    'The demotion brake must be a whole number from 0 to 10000.',
  );
  await card.card.getByRole('button', { name: 'Cancel' }).click();
  await expect(card.brake).toHaveValue('5');
  await expect(card.interval).toHaveValue('600');
  await expect(card.card.getByRole('alert')).toHaveCount(0);
  await context.close();
});

test('[admin] Discord failing shows the problem banner and changes nobody; the banner goes once Discord answers again', async ({
  browser,
}) => {
  await saveRoleSync(adminToken, {
    enabled: true,
    roleLevels: [{ roleId: GUILD_ROLES.admins.id, level: 'moderator' }],
  });
  const member = await signInAsGuildMember(browser, 'steady', [GUILD_ROLES.admins.id]);
  await member.context.close();

  const { panel, card, page, context } = await openCard(browser);
  await failGuildRoutes('missing-access');
  // Saving kicks a run at once; it re-checks every 10 s from then on.
  await card.interval.fill('10');
  await card.save.click();
  // After a save the card re-reads the sync's status every second; the run fails at its first lookup.
  await expect(card.problem).toContainText(
    'Role sync cannot see Discord, so no levels change: The bot has no access to the server (50001 Missing Access): was it removed or its role changed?',
  );
  await expect(panel.userRow(member.id)).toBeVisible();
  // Opened now, the card cannot list the roles either, and says so beside the banner.
  await page.reload();
  await expect(card.card.getByTestId('role-sync-roles-error')).toContainText(
    "Could not list the server's roles: Discord cannot be reached right now: The bot has no access",
  );
  await expect(card.problem).toBeVisible();
  await shotOf(card.card, 'role-sync-card-problem');
  await expectNoSeriousA11y(page);

  await failGuildRoutes(null);
  await card.card.getByRole('button', { name: 'Try again' }).click();
  await expect(card.roleLevel('Admins')).toHaveValue('moderator');
  // The admin does not wait for the next run: Check now starts one, and the card re-reads the status
  // every second meanwhile.
  await card.problem.getByRole('button', { name: 'Check now' }).click();
  await expect(card.problem).toBeHidden();
  await expect(panel.userRow(member.id)).toBeVisible();
  await context.close();
});

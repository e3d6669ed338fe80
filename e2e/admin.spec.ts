import { ADMIN_TEXTS, TEXTS } from '@guildhall/common';
import { expectNoSeriousA11y } from './support/a11y.ts';
import { AdminPanel } from './support/admin-panel.ts';
import { createMember } from './support/db.ts';
import { BASE_URL } from './support/env.ts';
import { expect, randomDiscordId, setDiscordUser, signedInContext, test } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

/** A page signed in as a fresh admin, on the admin panel with the API online. */
async function openAsAdmin(browser: import('@playwright/test').Browser) {
  const { context, page, member } = await signedInContext(browser, { access_level: 'admin' });
  const panel = new AdminPanel(page);
  await panel.open();
  await expect(panel.apiStatus).toHaveText('API Online');
  return { context, page, member, panel };
}

const shortName = (prefix: string) => `${prefix}_${Math.random().toString(36).slice(2, 8)}`;

test.describe('admin panel', () => {
  test('[admin] adds a user: default level User, shown in Approved Users, stats and Recent Changes', async ({
    browser,
  }) => {
    const { context, panel, member } = await openAsAdmin(browser);
    await expect(panel.userRow(member.userId)).toContainText('You');
    const total = Number(await panel.stat('total').textContent());

    await expect(panel.addForm).toHaveCount(0);
    await panel.addToggle.click();
    await expect(panel.addForm.getByLabel('Access Level')).toHaveValue('user');
    const id = randomDiscordId();
    const username = shortName('added');
    await panel.fillAddForm({ id, username, email: `${username}@example.org` });
    await panel.addForm.getByRole('button', { name: 'Add User' }).click();

    const row = panel.userRow(id);
    await expect(row).toContainText(username);
    await expect(row).toContainText(`${username}@example.org`);
    await expect(row).toContainText('User');
    await expect(panel.addForm).toHaveCount(0); // closes after adding
    // Other tests add members at any moment (the server is shared), so the card is compared with the list
    // it counts (the approved rows, the new one among them), not with "before + 1".
    const approvedRows = panel.approved.locator('[data-testid^="user-row-"]');
    await expect
      .poll(async () => Number(await panel.stat('total').textContent()) - (await approvedRows.count()))
      .toBe(0);
    expect(Number(await panel.stat('total').textContent())).toBeGreaterThan(total);
    await expect(panel.audit).toContainText(`${member.username} added ${username}`);
    await context.close();
  });

  test('[admin] the add form alerts on missing fields and on a duplicate', async ({ browser }) => {
    const existing = await createMember({ username: shortName('dupe') });
    const { context, panel } = await openAsAdmin(browser);
    await panel.addToggle.click();
    const submit = panel.addForm.getByRole('button', { name: 'Add User' });

    await panel.clickExpectingInlineError(submit, panel.addForm, TEXTS.fillRequired);
    await panel.fillAddForm({ id: randomDiscordId() });
    await panel.clickExpectingInlineError(submit, panel.addForm, TEXTS.fillRequired);

    await panel.fillAddForm({ id: existing.userId, username: shortName('other') });
    await panel.clickExpectingInlineError(submit, panel.addForm, TEXTS.duplicateUser);
    await panel.fillAddForm({ id: randomDiscordId(), username: existing.username.toUpperCase() });
    await panel.clickExpectingInlineError(submit, panel.addForm, TEXTS.duplicateUser);
    await expectNoSeriousA11y(panel.page);
    await shot(panel.page, 'admin-add-form-error');

    // What only the server can know comes back in the banner with the spec's prefix.
    await panel.fillAddForm({ id: '12345', username: shortName('short') });
    await submit.click();
    await expect(panel.errorBanner).toHaveText(
      ADMIN_TEXTS.addFailed('discord_id must be a Discord id (17–20 digits)'),
    );
    await panel.errorBanner.getByRole('button', { name: 'Dismiss error' }).click();
    await expect(panel.errorBanner).toHaveCount(0);
    await context.close();
  });

  test('[admin] approves a pending user, who then signs in through Discord', async ({ browser, page }) => {
    const id = randomDiscordId();
    const username = shortName('newcomer');
    await setDiscordUser(page.context(), { id, username });

    // 1. The newcomer tries first and is told their request waits for an admin (recorded as pending).
    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue with Discord' }).click();
    await expect(page.getByRole('alert')).toHaveText(TEXTS.notApproved);
    await expect(page.getByRole('heading', { name: 'Your request is waiting for an admin' })).toBeVisible();

    // 2. The admin sees the pending count in the navbar and approves them at the offered level (User).
    const { context, page: adminPage, panel, member: admin } = await openAsAdmin(browser);
    await expect(adminPage.getByTestId('nav-pending')).toBeVisible();
    await expect(panel.pendingRow(id)).toContainText(username);
    await expect(panel.pendingRow(id).getByLabel(`Level for ${username}`)).toHaveValue('user');
    await panel
      .pendingRow(id)
      .getByRole('button', { name: /^Approve/ })
      .click();
    await expect(panel.pendingRow(id)).toHaveCount(0);
    await expect(panel.userRow(id)).toContainText('User');
    await expect(panel.audit).toContainText(`Approved: no → yes`);
    // The navbar re-reads the count after the approval. Other tests add pending accounts at any moment
    // (the server is shared), so the badge is compared with the server's count now, not with "before - 1".
    // One read that never waits: when this newcomer was the only pending account the badge disappears, and
    // a count() followed by textContent() waited forever on a badge that left between the two calls.
    const shownCount = async () => {
      const [text] = await adminPage.getByTestId('nav-pending').allTextContents();
      return text === undefined ? 0 : Number(text.match(/\d+/)?.[0]);
    };
    const serverCount = async () => {
      const res = await adminPage.request.get(`${BASE_URL}/api/users`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      const body = (await res.json()) as { data: { is_approved: boolean }[] };
      return body.data.filter((u) => !u.is_approved).length;
    };
    await expect.poll(async () => (await shownCount()) - (await serverCount())).toBe(0);
    await context.close();

    // 3. Their next sign-in succeeds and lands on the dashboard.
    await setDiscordUser(page.context(), { id, username });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue with Discord' }).click();
    await expect(page.getByText(`Welcome, ${username}!`)).toBeVisible();
    await expect(page).toHaveURL(`${BASE_URL}/dashboard`);
    await expect(page.getByRole('heading', { name: `Welcome back, ${username}!` })).toBeVisible();
  });

  test('[admin] edits a user inline: Cancel keeps, Save changes, an empty username is refused', async ({
    browser,
  }) => {
    const target = await createMember({ username: shortName('editme'), access_level: 'user' });
    const { context, panel } = await openAsAdmin(browser);
    const row = panel.userRow(target.userId);
    await expect(row).toContainText('User');

    await row.getByRole('button', { name: /^Edit/ }).click();
    await row.getByLabel('Access Level').selectOption({ label: 'Moderator' });
    await row.getByRole('button', { name: 'Cancel' }).click();
    await expect(row).not.toHaveAttribute('data-editing', 'true');
    await expect(row).not.toContainText('Moderator');

    await row.getByRole('button', { name: /^Edit/ }).click();
    await row.getByLabel('Username').fill('   ');
    await panel.clickExpectingInlineError(
      row.getByRole('button', { name: 'Save' }),
      row,
      TEXTS.usernameRequired,
    );
    await row.getByLabel('Username').fill(target.username);
    await row.getByLabel('Access Level').selectOption({ label: 'Moderator' });
    await row.getByRole('button', { name: 'Save' }).click();
    await expect(row).toContainText('Moderator');
    await expect(row).not.toHaveAttribute('data-editing', 'true');

    // Survives a reload: it was saved on the server.
    await panel.open();
    await expect(panel.userRow(target.userId)).toContainText('Moderator');
    await context.close();
  });

  test('[admin] removes a user only after the confirmation; never offered on your own row', async ({
    browser,
  }) => {
    const target = await createMember({ username: shortName('goner') });
    const { context, panel, member } = await openAsAdmin(browser);
    await expect(panel.userRow(member.userId).getByRole('button', { name: /^Remove/ })).toHaveCount(0);

    const remove = panel.userRow(target.userId).getByRole('button', { name: /^Remove/ });
    expect(await panel.clickExpectingConfirm(remove, 'dismiss')).toBe(TEXTS.confirmRemove);
    await expect(panel.userRow(target.userId)).toBeVisible();

    expect(await panel.clickExpectingConfirm(remove, 'accept')).toBe(TEXTS.confirmRemove);
    await expect(panel.userRow(target.userId)).toHaveCount(0);
    await expect(panel.audit).toContainText(`removed ${target.username}`);
    await context.close();
  });

  test('[admin] offline: badge, cached list, one banner, every admin button but Refresh disabled, Refresh retries', async ({
    browser,
  }) => {
    const { context, page, panel, member } = await openAsAdmin(browser);
    await expect(panel.refreshButton).toBeEnabled();

    await page.route('**/api/users**', (route) => route.abort());
    await panel.refreshButton.click();
    await expect(panel.apiStatus).toHaveText('API Offline');
    await expect(page.getByTestId('offline-notice')).toContainText(TEXTS.backendUnavailable);
    // One banner: the offline notice; the failed refresh adds no second one.
    await expect(panel.errorBanner).toHaveCount(0);
    // The cached approved list is shown, your own row included.
    await expect(panel.userRow(member.userId)).toContainText(member.username);
    await expect(panel.refreshButton).toBeEnabled();
    for (const button of [
      panel.addToggle,
      panel.userRow(member.userId).getByRole('button', { name: /^Edit/ }),
    ]) {
      await expect(button).toBeDisabled();
    }
    await expect(panel.approved.getByRole('button', { name: /^Remove/ }).first()).toBeDisabled();

    // Opening the panel while the API is down: offline straight away, same cached list, no stray banner.
    await panel.open();
    await expect(panel.apiStatus).toHaveText('API Offline');
    await expect(page.getByTestId('offline-notice')).toBeVisible();
    await expect(panel.errorBanner).toHaveCount(0);
    await expect(panel.userRow(member.userId)).toBeVisible();
    await expectNoSeriousA11y(page);
    await shot(page, 'admin-offline');

    // Back online: Refresh (not a reload) retries and the panel comes back.
    await page.unroute('**/api/users**');
    await panel.refreshButton.click();
    await expect(panel.apiStatus).toHaveText('API Online');
    await expect(page.getByTestId('offline-notice')).toHaveCount(0);
    await expect(panel.addToggle).toBeEnabled();
    await context.close();
  });

  test('[user] is refused the admin panel', async ({ memberPage }) => {
    await memberPage.goto('/admin');
    await expect(memberPage.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
    await expect(memberPage.getByText(TEXTS.adminNoPermission)).toBeVisible();
    await expect(memberPage.getByRole('link', { name: 'Back to Dashboard' })).toBeVisible();
  });
});

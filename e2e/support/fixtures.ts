import { type Browser, type BrowserContext, test as base, type Page } from '@playwright/test';
import type { UserOverrides } from '../../server/src/test/factories.ts';
import { FAKE_DISCORD_USER_COOKIE } from '../../server/src/test/fake-discord.ts';
import { createMember } from './db.ts';
import { BASE_URL, DISCORD_BASE } from './env.ts';

export type Member = { token: string; userId: string; username: string };

/** Opens a browser context already signed in as a new member (token + user in localStorage). */
export async function signedInContext(
  browser: Browser,
  overrides: UserOverrides = {},
): Promise<{ context: BrowserContext; page: Page; member: Member }> {
  const member = await createMember(overrides);
  const context = await browser.newContext({ baseURL: BASE_URL });
  await context.addInitScript(
    ({ token, user }) => {
      if (!localStorage.getItem('authToken')) {
        localStorage.setItem('authToken', token);
        localStorage.setItem('authUser', JSON.stringify(user));
      }
    },
    {
      token: member.token,
      user: {
        discord_id: member.userId,
        username: member.username,
        access_level: overrides.access_level ?? 'user',
        is_approved: true,
      },
    },
  );
  const page = await context.newPage();
  return { context, page, member };
}

/**
 * Signs this browser context into the fake Discord as `user` (its session cookie), so the next
 * "Continue with Discord" in this context authorizes as them, whatever other tests do meanwhile.
 */
export async function setDiscordUser(
  context: BrowserContext,
  user: {
    id: string;
    username: string;
    discriminator?: string;
    avatar?: string | null;
    email?: string | null;
  },
): Promise<void> {
  await context.addCookies([
    {
      name: FAKE_DISCORD_USER_COOKIE,
      value: Buffer.from(JSON.stringify(user)).toString('base64url'),
      url: DISCORD_BASE,
    },
  ]);
}

/** A fresh random Discord-like id (18 digits). */
export function randomDiscordId(): string {
  return `4${Date.now().toString().slice(-9)}${Math.floor(Math.random() * 1e8)
    .toString()
    .padStart(8, '0')}`;
}

export const test = base.extend<{ memberPage: Page }>({
  // A page signed in as a fresh `user`-level member.
  memberPage: async ({ browser }, use) => {
    const { context, page } = await signedInContext(browser);
    await use(page);
    await context.close();
  },
});

export { expect } from '@playwright/test';

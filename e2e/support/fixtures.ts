import { spawnSync } from 'node:child_process';
import { type Browser, type BrowserContext, test as base, type Page, type Request } from '@playwright/test';
import type { UserOverrides } from '../../server/src/test/factories.ts';
import { FAKE_DISCORD_USER_COOKIE } from '../../server/src/test/fake-discord.ts';
import { deadline } from '../../server/src/test/time-scale.ts';
import { createMember } from './db.ts';
import { BASE_URL, DISCORD_BASE } from './env.ts';

export type Member = { token: string; userId: string; username: string };

/** Each context's requests that have not ended, and those that failed or were refused (failure report). */
const requestLog = new WeakMap<BrowserContext, { pending: Map<Request, number>; failed: string[] }>();

/** Keeps the requests of a context that have not ended yet (with when each started) and the failed ones. */
function trackRequests(context: BrowserContext): void {
  if (requestLog.has(context)) return;
  const log = { pending: new Map<Request, number>(), failed: [] as string[] };
  requestLog.set(context, log);
  context.on('request', (r) => log.pending.set(r, Date.now()));
  context.on('requestfinished', (r) => log.pending.delete(r));
  context.on('requestfailed', (r) => {
    log.pending.delete(r);
    log.failed.push(`${r.method()} ${r.url()}: ${r.failure()?.errorText ?? 'failed'}`);
  });
  context.on('response', (r) => {
    if (r.status() >= 400) log.failed.push(`${r.request().method()} ${r.url()}: ${r.status()}`);
  });
}

/** Opens a browser context already signed in as a new member (token + user in localStorage). */
export async function signedInContext(
  browser: Browser,
  overrides: UserOverrides = {},
): Promise<{ context: BrowserContext; page: Page; member: Member }> {
  const member = await createMember(overrides);
  const context = await browser.newContext({ baseURL: BASE_URL });
  trackRequests(context);
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

/**
 * What each given page answers within 2 s, its requests that never ended or failed, and the busiest
 * processes: printed when a test fails. It named the cause of pages that stayed blank in CI runs (every
 * script request failed with ERR_NETWORK_CHANGED while Podman built on its own network).
 */
async function reportPages(pages: Page[], title: string): Promise<void> {
  const lines = [`[failure report] ${title}`];
  for (const page of pages) {
    const answer = await page
      .waitForFunction(
        () => `${document.readyState}, ${document.body?.textContent?.length ?? 0} characters`,
        null,
        // A page that still answers does so at once; the report must not hold up the failed test long.
        { timeout: deadline(2000) },
      )
      .then((handle) => handle.jsonValue())
      .catch((e: unknown) => `no answer within 2 s: ${String(e).slice(0, 160)}`);
    lines.push(`  ${page.url()}: ${answer}`);
    // Requests that never ended (a page that renders nothing may be waiting on one of its files).
    const now = Date.now();
    const log = requestLog.get(page.context());
    for (const [request, since] of log?.pending ?? [])
      lines.push(
        `    still waiting ${((now - since) / 1000).toFixed(1)} s: ${request.method()} ${request.url()}`,
      );
    for (const failed of log?.failed.slice(-12) ?? []) lines.push(`    failed: ${failed}`);
  }
  const ps = spawnSync('ps', ['-eo', 'pid,ni,stat,pcpu,etime,args', '--sort=-pcpu'], { encoding: 'utf8' });
  lines.push(
    ...(ps.stdout ?? '')
      .split('\n')
      .slice(0, 9)
      .map((l) => `  ${l.slice(0, 160)}`),
  );
  console.error(lines.join('\n'));
}

export const test = base.extend<{ memberPage: Page; failureReport: undefined }>({
  // The usual page, reported on before it closes when its test failed.
  page: async ({ page }, use, testInfo) => {
    trackRequests(page.context());
    await use(page);
    if (testInfo.status !== testInfo.expectedStatus) await reportPages([page], testInfo.title);
  },
  // A page signed in as a fresh `user`-level member.
  memberPage: async ({ browser }, use) => {
    const { context, page } = await signedInContext(browser);
    await use(page);
    await context.close();
  },
  // The pages of contexts a failed test opened itself (signedInContext) and left open.
  failureReport: [
    async ({ browser }, use, testInfo) => {
      await use(undefined);
      // The `page` fixture's context has closed by now (it reported on its own page).
      const open = browser.contexts().flatMap((c) => c.pages());
      if (open.length > 0 && testInfo.status !== testInfo.expectedStatus)
        await reportPages(open, testInfo.title);
    },
    { auto: true },
  ],
});

export { expect } from '@playwright/test';

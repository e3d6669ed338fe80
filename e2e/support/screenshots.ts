/**
 * Takes screenshots of the main screens at desktop (1280) and phone (375) width for a visual check:
 *   node e2e/support/screenshots.ts [baseUrl] [outDir]
 * Expects a running portal (e.g. the e2e servers); signs in by planting a session made in its database.
 */
import path from 'node:path';
import { chromium } from '@playwright/test';
import { createMember } from './db.ts';
import { BASE_URL, ROOT } from './env.ts';

const base = process.argv[2] ?? BASE_URL;
const out = process.argv[3] ?? path.join(ROOT, '.tmp', 'screenshots');
const pages = (process.env.SHOT_PAGES ?? '/,/login,/dashboard,/settings').split(',');

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const member = await createMember({
  access_level: (process.env.SHOT_LEVEL as 'admin') ?? 'admin',
  email: 'member@example.com',
});
for (const [label, width, height] of [
  ['desktop', 1280, 800],
  ['phone', 375, 740],
] as const) {
  for (const route of pages) {
    const signedIn = route !== '/login';
    const context = await browser.newContext({ viewport: { width, height }, baseURL: base });
    if (signedIn) {
      await context.addInitScript((m) => {
        localStorage.setItem('authToken', m.token);
        localStorage.setItem(
          'authUser',
          JSON.stringify({
            discord_id: m.userId,
            username: m.username,
            access_level: 'admin',
            is_approved: true,
          }),
        );
      }, member);
    }
    const page = await context.newPage();
    await page.goto(route);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);
    const name = `${label}-${route.replace(/\//g, '_') || 'home'}.png`;
    await page.screenshot({ path: path.join(out, name), fullPage: true });
    await context.close();
  }
}
await browser.close();
console.log(`screenshots in ${out}`);

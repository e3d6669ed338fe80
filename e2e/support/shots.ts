import path from 'node:path';
import type { Page } from '@playwright/test';
import { setTheme, THEMES } from './a11y.ts';
import { ROOT } from './env.ts';

const SHOTS = process.env.E2E_SHOTS ? path.join(ROOT, '.tmp', 'shots-journeys') : null;

/** Saves screenshots at 1280 and 375 px in both themes when E2E_SHOTS is set (for looking at, not for comparing). */
export async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  const before = page.viewportSize();
  for (const theme of THEMES) {
    await setTheme(page, theme);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: path.join(SHOTS, `${name}-${theme}-${width}.png`), fullPage: true });
    }
  }
  await setTheme(page, 'dark');
  if (before) await page.setViewportSize(before);
}

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALLOWED, findSleeps, scanTests } from './no-sleep.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

describe('tests without fixed sleeps (docs/CONVENTIONS.md)', () => {
  it('no test sleeps a fixed time and then asserts (wait for the event, or prove "nothing" with a sentinel)', () => {
    expect(scanTests(repoRoot, ['common/src', 'server/src', 'web/src', 'e2e'])).toEqual([]);
  });

  it('every allowed use says why', () => {
    for (const a of ALLOWED) expect(a.reason.length).toBeGreaterThan(20);
  });
});

describe('the sleep checker', () => {
  const lines = (source: string) => findSleeps('x.test.ts', source).map((f) => [f.line, f.pattern]);

  it('finds the sleeps, however they are written', () => {
    const source = [
      'await page.waitForTimeout(500);',
      'await new Promise((r) => setTimeout(r, 50));',
      'await new Promise((resolve) => setTimeout(resolve, 250));',
      'await new Promise<void>((done) => { setTimeout(() => resolve(), 100); });',
      'await sleep(300);',
      "import { setTimeout as wait } from 'node:timers/promises';",
      'expect(seen).toEqual([]);',
      'await vi.waitFor(() => expect(count()).toBe(2));',
      'await expect(card).toBeVisible({ timeout: 5000 });',
      'test.setTimeout(60_000);',
      '}, 30_000);',
    ].join('\n');
    expect(lines(source)).toEqual([
      [1, 'waitForTimeout'],
      [2, 'a timer that resolves (a sleep)'],
      [3, 'a timer that resolves (a sleep)'],
      [4, 'a timer that resolves (a sleep)'],
      [5, 'an awaited sleep/delay'],
      [6, 'node:timers/promises'],
      [8, 'vi.waitFor (its own 1 s deadline; use eventually)'],
      [9, 'a literal deadline (use the default or deadline(ms))'],
      [10, 'a literal deadline (use the default or deadline(ms))'],
      [11, 'a literal deadline (use the default or deadline(ms))'],
    ]);
  });

  it('leaves guards, fake clocks, event waits and comments alone', () => {
    const source = [
      "const timer = setTimeout(() => reject(new Error('no answer')), 15000);",
      'vi.advanceTimersByTime(60_000);',
      'await eventually(() => expect(count()).toBe(2));',
      'await expect(card).toBeVisible({ timeout: deadline(60_000) });',
      "await nextEvent(socket, 'state');",
      '// never: await sleep(100) and then assert',
    ].join('\n');
    expect(lines(source)).toEqual([]);
  });
});

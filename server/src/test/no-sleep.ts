import fs from 'node:fs';
import path from 'node:path';

/**
 * Finds tests that sleep a fixed time and then assert (docs/CONVENTIONS.md, "Tests without sleeps"):
 * such a test passes when the awaited thing is merely slow and fails on a busy machine. Found:
 * - Playwright's `waitForTimeout(…)`;
 * - a timer that resolves a promise (`setTimeout(resolve, …)`, `setTimeout(r, …)`,
 *   `setTimeout(() => resolve(), …)`): a sleep, however it is wrapped;
 * - an awaited `sleep(…)` / `delay(…)`, and the promise timers of `node:timers/promises`;
 * - a deadline of the test's own: `vi.waitFor` (1 s unless told), a literal `timeout: N`, a per-test
 *   limit (`test.setTimeout(N)`, `}, N);`), which a slower machine exceeds (docs/testing.md).
 * A timer that REJECTS (a guard: "no answer within 15 s") is not a sleep and is not reported.
 */
const PATTERNS: { name: string; re: RegExp }[] = [
  { name: 'waitForTimeout', re: /\bwaitForTimeout\s*\(/ },
  {
    name: 'a timer that resolves (a sleep)',
    re: /\bsetTimeout\s*\(\s*(?:(?:resolve|res|r|done)\b|\(\)\s*=>\s*(?:resolve|res|r|done)\s*\()/,
  },
  { name: 'an awaited sleep/delay', re: /\bawait\s+(?:sleep|delay|wait)\s*\(\s*\d/ },
  { name: 'node:timers/promises', re: /from\s+['"](?:node:)?timers\/promises['"]/ },
  // A deadline of a test's own is a bet on the machine's speed (issue 47): waits go through eventually()
  // or expect.poll with the suite's one deadline, and a longer limit through deadline(ms) (time-scale.ts).
  { name: 'vi.waitFor (its own 1 s deadline; use eventually)', re: /\bvi\.waitFor\s*\(/ },
  {
    name: 'a literal deadline (use the default or deadline(ms))',
    re: /\btimeout:\s*\d|\btest\.setTimeout\(\s*\d|^\s*\}, \d[\d_]{3,}\);/,
  },
];

/** Where tests live: unit tests, the browser specs and their support code. */
export const TEST_FILE =
  /(\.test\.tsx?|\.spec\.ts|\/e2e\/support\/[^/]+\.ts|\/testing\.ts|\/test-helpers\.ts)$/;

export type SleepFinding = { file: string; line: number; pattern: string; text: string };

/**
 * Justified uses, each with the reason it is not "sleep, then assert". Matched by file and by the
 * text of the line, so a new sleep in the same file is still reported.
 */
export const ALLOWED: { file: string; text: string; reason: string }[] = [
  {
    file: 'server/src/features/music/chaos.test.ts',
    text: 'const outageLasts = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));',
    reason:
      'the length of an outage is the input under test (a dependency stays away 3 s); what follows waits for the status and the audio that prove recovery',
  },
  {
    file: 'server/src/features/music/audio-levels.test.ts',
    text: 'const pauseLasts = (ms: number) => new Promise((r) => setTimeout(r, ms));',
    reason:
      'the length of a pause is the input under test (longer than the idle limit); what follows waits for the audio after resume',
  },
  {
    file: 'e2e/support/screenshots.ts',
    text: 'await page.waitForTimeout(300);',
    reason:
      'a script that takes screenshots for people to look at; it asserts nothing, the pause lets CSS transitions end',
  },
  {
    file: 'server/src/features/music/audio.test.ts',
    text: 'await new Promise((r) => setTimeout(r, 600));',
    reason:
      'the length of a pause is the input under test (the player is held paused for a while); what follows waits for the first packet after resume, the sentinel',
  },
  {
    file: 'e2e/support/music-screen.ts',
    text: 'await this.page.waitForTimeout(300);',
    reason:
      'part of a touch gesture (a finger resting past the drag sensor’s 150 ms press delay), not a wait for a result',
  },
];

export function findSleeps(file: string, source: string): SleepFinding[] {
  const findings: SleepFinding[] = [];
  source.split('\n').forEach((text, i) => {
    if (/^\s*(\/\/|\*)/.test(text)) return; // comments may name the patterns
    for (const { name, re } of PATTERNS) {
      if (!re.test(text)) continue;
      const isAllowed = ALLOWED.some((a) => file.endsWith(a.file) && text.includes(a.text));
      if (!isAllowed) findings.push({ file, line: i + 1, pattern: name, text: text.trim() });
    }
  });
  return findings;
}

/** The checker's own test holds the patterns as fixtures. */
const CHECKER_TEST = path.resolve(import.meta.dirname, 'no-sleep.test.ts');

/** Scans every test file under `dirs` (relative to `repoRoot`), skipping node_modules and the checker's test. */
export function scanTests(repoRoot: string, dirs: string[]): SleepFinding[] {
  const self = CHECKER_TEST;
  return dirs.flatMap((dir) =>
    fs
      .readdirSync(path.join(repoRoot, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !e.parentPath.includes('node_modules'))
      .map((e) => path.join(e.parentPath, e.name))
      .filter((f) => TEST_FILE.test(f.split(path.sep).join('/')) && path.resolve(f) !== self)
      .flatMap((f) =>
        findSleeps(path.relative(repoRoot, f).split(path.sep).join('/'), fs.readFileSync(f, 'utf8')),
      ),
  );
}

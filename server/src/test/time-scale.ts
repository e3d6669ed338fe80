/**
 * Every deadline of the suite, from one setting (docs/testing.md, "Deadlines"): a test waits for the event
 * that proves a thing happened, and gives up only after a generous deadline that grows with
 * TEST_TIME_SCALE (default 1; 3 on a machine three times slower than a developer's). No test passes
 * because something was fast or fails because something was slow: time-based behaviour runs on an
 * injected clock, and performance is measured in bench/.
 */
function readScale(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 1;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale <= 0) {
    throw new Error(`TEST_TIME_SCALE must be a positive number (got "${raw}")`);
  }
  return scale;
}

export const TIME_SCALE = readScale(process.env.TEST_TIME_SCALE);

/** A deadline of `ms` on a developer's machine, scaled for this one. */
export function deadline(ms: number): number {
  return Math.round(ms * TIME_SCALE);
}

/** How long a test waits for an event (a status, a row, a packet, a closed socket) before it fails. */
export const EVENT_DEADLINE_MS = deadline(30_000);

/** The default limit of one Vitest test or hook: a server suite starts apps, fakes and child processes. */
export const TEST_TIMEOUT_MS = deadline(120_000);

/** The default limit of one browser test (Playwright): a member's whole journey through several screens. */
export const BROWSER_TEST_TIMEOUT_MS = deadline(180_000);

/** How long a browser test waits for a screen to show what it expects. */
export const BROWSER_EXPECT_MS = deadline(20_000);

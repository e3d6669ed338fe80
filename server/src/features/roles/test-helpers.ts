import { expect } from 'vitest';
import { eventually } from '../../test/eventually.ts';
import { manualClock as sharedManualClock } from '../../test/manual-clock.ts';
import type { Reconciler } from './index.ts';

/** The suite's hand-moved clock (test/manual-clock.ts), from a fixed date. */
export const manualClock = (start = Date.parse('2025-06-01T00:00:00Z')) => sharedManualClock(start);

export type ManualClock = ReturnType<typeof manualClock>;

const parked = (reconciler: () => Reconciler) => eventually(() => expect(reconciler().isParked()).toBe(true));

/**
 * Moves the clock `ms` forward, but only while the reconciler waits on it (every lookup and run in
 * between completes first, however slow the machine), then on until a run in progress has ended.
 */
export async function runFor(clock: ManualClock, reconciler: () => Reconciler, ms: number): Promise<void> {
  const end = clock.now() + ms;
  for (;;) {
    await parked(reconciler);
    const due = clock.nextDueAt();
    if (due === null) break;
    if (due > end) {
      if (reconciler().isIdle()) break;
    }
    await clock.advance(Math.max(0, due - clock.now()));
  }
  if (clock.now() < end) await clock.advance(end - clock.now());
}

/**
 * Moves the clock timer by timer until `isDone` holds and returns the injected clock's time that took;
 * fails once the next step would pass `withinMs`.
 */
export async function runUntil(
  clock: ManualClock,
  reconciler: () => Reconciler,
  isDone: () => Promise<boolean>,
  withinMs: number,
): Promise<number> {
  const start = clock.now();
  for (;;) {
    await parked(reconciler);
    if (await isDone()) return clock.now() - start;
    const due = clock.nextDueAt();
    if (due === null || due > start + withinMs)
      throw new Error(`not done within ${withinMs} ms of the clock`);
    await clock.advance(due - clock.now());
  }
}

import { expect } from 'vitest';
import type { Clock } from '../../platform/feature.ts';
import { eventually } from '../../test/eventually.ts';
import type { Reconciler } from './index.ts';

/** A clock the test moves by hand: `advance` fires every timer that falls due, in order. */
export function manualClock(start = Date.parse('2025-06-01T00:00:00Z')) {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => unknown }>();
  const nextDue = () => [...timers.entries()].sort((a, b) => a[1].at - b[1].at)[0] ?? null;
  const clock: Clock & { advance(ms: number): Promise<void>; nextDueAt(): number | null } = {
    now: () => now,
    setTimeout(fn, ms) {
      seq += 1;
      timers.set(seq, { at: now + ms, fn });
      return seq;
    },
    clearTimeout(h) {
      timers.delete(h as number);
    },
    async advance(ms) {
      const until = now + ms;
      for (let due = nextDue(); due && due[1].at <= until; due = nextDue()) {
        timers.delete(due[0]);
        now = Math.max(now, due[1].at);
        await due[1].fn();
      }
      now = until;
    },
    nextDueAt: () => nextDue()?.[1].at ?? null,
  };
  return clock;
}

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

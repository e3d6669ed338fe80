import type { Clock } from '../platform/feature.ts';

/**
 * A clock the test moves: timers run only when `advance` passes their time (in order, each awaited), so
 * lease periods, heartbeats, turns and reconcile intervals take no real time and never depend on the
 * machine's speed. One copy for every suite (Pictionary, role sync and the music lease each had their own).
 */
export function manualClock(start = Date.now()) {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => unknown }>();
  const nextDue = () => [...timers.entries()].sort((a, b) => a[1].at - b[1].at)[0] ?? null;
  const clock: Clock & {
    advance(ms: number): Promise<void>;
    /**
     * Moves time by `ms` at once, then runs the timers that fell due, each once, in order: a machine that
     * wakes from a long sleep. For spans of days, where `advance` would run a one-minute beat tens of
     * thousands of times (each a database round trip) and the test's length would follow the machine's speed.
     */
    jump(ms: number): Promise<void>;
    /** How many timers wait. */
    pending(): number;
    /** When the next timer falls due, or null. */
    nextDueAt(): number | null;
  } = {
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
    async jump(ms) {
      now += ms;
      const due = [...timers.entries()].filter(([, t]) => t.at <= now).sort((a, b) => a[1].at - b[1].at);
      for (const [id, t] of due) {
        if (!timers.delete(id)) continue; // cleared by a timer that ran before it
        await t.fn();
      }
    },
    pending: () => timers.size,
    nextDueAt: () => nextDue()?.[1].at ?? null,
  };
  return clock;
}

export type ManualClock = ReturnType<typeof manualClock>;

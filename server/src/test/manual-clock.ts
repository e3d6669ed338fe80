import type { Clock } from '../platform/feature.ts';

/**
 * A clock the test moves: timers run only when `advance` passes their time (in order, each awaited), so
 * lease periods and heartbeats take no real time and never depend on the machine's speed.
 */
export function manualClock(start = Date.now()) {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => unknown }>();
  const clock: Clock & { advance(ms: number): Promise<void> } = {
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
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= until)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = Math.max(now, due[1].at);
        await due[1].fn();
      }
      now = until;
    },
  };
  return clock;
}

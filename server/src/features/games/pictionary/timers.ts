import type { Clock } from '../../../platform/feature.ts';

/** The clock and timers the service runs on: the platform's (real in production, driven in tests). */
export { type Clock, realClock } from '../../../platform/feature.ts';

/** Timers firing slightly late never hurt; firing before the stored deadline would only re-arm. */
const SLACK_MS = 5;

/** One timer per game on this instance, armed for when its current phase is due. */
export type TurnTimers = {
  schedule(gameId: string, endsAt: string | null): void;
  cancelAll(): void;
};

export function createTurnTimers(clock: Clock, onDue: (gameId: string) => unknown): TurnTimers {
  const timers = new Map<string, unknown>();
  return {
    schedule(gameId, endsAt) {
      const held = timers.get(gameId);
      if (held !== undefined) clock.clearTimeout(held);
      timers.delete(gameId);
      if (!endsAt) return;
      const delay = Math.max(0, Date.parse(endsAt) - clock.now()) + SLACK_MS;
      timers.set(
        gameId,
        clock.setTimeout(() => {
          timers.delete(gameId);
          return onDue(gameId);
        }, delay),
      );
    },
    cancelAll() {
      for (const h of timers.values()) clock.clearTimeout(h);
      timers.clear();
    },
  };
}

import { rateLimitText } from '@guildhall/common';
import { fail } from '../../../platform/errors.ts';

const WINDOW_MS = 60_000;

/**
 * The music routes' per-member limits, counted for commands and buttons (issue 44). Interactions reach
 * only the instance that holds the bot, so one count in its process sees all of them; fixed windows that
 * start with a member's first use, as the routes' limits do.
 */
export class MemberLimits {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly now: () => number;
  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** Counts one use of `kind` by the member; throws RATE_LIMITED (the routes' own text) past `max`. */
  take(kind: string, memberId: string, max: number): void {
    const key = `${kind}:${memberId}`;
    const now = this.now();
    let w = this.windows.get(key);
    if (!w || now - w.start >= WINDOW_MS) {
      if (this.windows.size > 10_000) this.sweep(now);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    if (w.count > max) {
      const seconds = Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000));
      throw fail('RATE_LIMITED', rateLimitText(seconds));
    }
  }

  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= WINDOW_MS) this.windows.delete(k);
  }
}

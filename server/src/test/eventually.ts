import { vi } from 'vitest';
import { EVENT_DEADLINE_MS } from './time-scale.ts';

/**
 * Retries `check` until it passes (Vitest's waitFor) within the suite's one event deadline
 * (time-scale.ts): a test waits for what proves the thing, never a deadline of its own that a slower
 * machine exceeds.
 */
export function eventually<T>(check: () => T | Promise<T>, options: { interval?: number } = {}): Promise<T> {
  return vi.waitFor(check, { timeout: EVENT_DEADLINE_MS, interval: options.interval ?? 50 });
}

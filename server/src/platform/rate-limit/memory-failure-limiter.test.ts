import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Attempt } from './failure-limiter.ts';
import { createMemoryFailureLimiter } from './memory-failure-limiter.ts';

const WINDOW = 15 * 60 * 1000;

// A fake clock: the windows are minutes long.
beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});
const advance = (ms: number) => vi.advanceTimersByTime(ms);

async function fail(begin: Promise<Attempt>): Promise<void> {
  expect((await begin).isAllowed).toBe(true);
}

describe('memory failure limiter', () => {
  it('refuses the 11th attempt after 10 failures, with the time until the oldest one leaves the window', async () => {
    const limiter = createMemoryFailureLimiter(10, WINDOW);
    for (let i = 0; i < 10; i += 1) {
      await fail(limiter.begin('a'));
      advance(1000);
    }
    // The first failure was 10 s ago, so it leaves the window in 15 min − 10 s.
    expect(await limiter.begin('a')).toEqual({ isAllowed: false, retryAfterSeconds: 890 });
    expect((await limiter.begin('b')).isAllowed).toBe(true);
  });

  it('lets the key try again once its oldest failure has left the window', async () => {
    const limiter = createMemoryFailureLimiter(2, WINDOW);
    await fail(limiter.begin('a'));
    advance(60_000);
    await fail(limiter.begin('a'));
    advance(WINDOW - 60_000 - 1);
    expect(await limiter.begin('a')).toEqual({ isAllowed: false, retryAfterSeconds: 1 });
    advance(1);
    expect((await limiter.begin('a')).isAllowed).toBe(true);
  });

  it('does not count forgiven attempts (successes)', async () => {
    const limiter = createMemoryFailureLimiter(2, WINDOW);
    for (let i = 0; i < 5; i += 1) {
      const attempt = await limiter.begin('a');
      if (!attempt.isAllowed) throw new Error('refused a key with no failures');
      await attempt.forgive();
    }
    await fail(limiter.begin('a'));
    await fail(limiter.begin('a'));
    expect((await limiter.begin('a')).isAllowed).toBe(false);
  });

  it('counts attempts still in progress, so parallel guesses cannot all pass the check', async () => {
    const limiter = createMemoryFailureLimiter(10, WINDOW);
    const attempts = await Promise.all(Array.from({ length: 25 }, () => limiter.begin('a')));
    expect(attempts.filter((a) => a.isAllowed)).toHaveLength(10);
  });
});

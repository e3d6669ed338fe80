import { RateLimiterMemory } from 'rate-limiter-flexible';
import { type FailureLimiter, failureLimiterOn } from './failure-limiter.ts';

/**
 * The in-process failure limiter (rate-limiter-flexible's memory store): used when REDIS_URL is not
 * set, and per instance as the fallback while Redis is unreachable. The window starts at a key's first
 * failure.
 */
export function createMemoryFailureLimiter(max: number, windowMs: number): FailureLimiter {
  const counter = new RateLimiterMemory({ points: max, duration: windowMs / 1000 });
  return failureLimiterOn(counter, (err) => Promise.reject(err));
}

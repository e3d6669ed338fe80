import type { Attempt, FailureLimiter } from './failure-limiter.ts';

type Failure = { at: number };

/**
 * The in-process failure limiter: used when REDIS_URL is not set, and per instance as the fallback while
 * Redis is unreachable. `now` is injectable for tests.
 */
export function createMemoryFailureLimiter(
  max: number,
  windowMs: number,
  now: () => number = Date.now,
): FailureLimiter {
  const failures = new Map<string, Failure[]>();

  const recent = (key: string, at: number): Failure[] =>
    (failures.get(key) ?? []).filter((f) => f.at > at - windowMs);

  const prune = (at: number): void => {
    for (const [key, list] of failures) {
      if (!list.some((f) => f.at > at - windowMs)) failures.delete(key);
    }
  };

  return {
    async begin(key: string): Promise<Attempt> {
      const at = now();
      const list = recent(key, at);
      if (list.length >= max) {
        const oldest = list[list.length - max]!.at;
        return {
          isAllowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - at) / 1000)),
        };
      }
      const failure: Failure = { at };
      list.push(failure);
      failures.set(key, list);
      if (failures.size > 10_000) prune(at);
      return {
        isAllowed: true,
        async forgive() {
          const current = failures.get(key);
          const index = current?.indexOf(failure) ?? -1;
          if (index >= 0) current!.splice(index, 1);
        },
      };
    },
  };
}

/**
 * Counts failures per key (a client address) in a sliding window and blocks a key once it reaches
 * the limit. Successes do not count, so a member who types the right code is never slowed down.
 * In-process: behind several instances each keeps its own count (documented in docs/operations.md).
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();
  private readonly max: number;
  private readonly windowMs: number;

  constructor(max: number, windowMs: number) {
    this.max = max;
    this.windowMs = windowMs;
  }

  /** Seconds until the key may try again, or 0 when it is not blocked. */
  retryAfterSeconds(key: string, now = Date.now()): number {
    const recent = this.recent(key, now);
    if (recent.length < this.max) return 0;
    const oldest = recent[recent.length - this.max] ?? now;
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }

  recordFailure(key: string, now = Date.now()): void {
    const recent = this.recent(key, now);
    recent.push(now);
    this.failures.set(key, recent);
    if (this.failures.size > 10_000) this.prune(now);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => t > now - this.windowMs);
  }

  private prune(now: number): void {
    for (const [key, times] of this.failures) {
      if (!times.some((t) => t > now - this.windowMs)) this.failures.delete(key);
    }
  }
}

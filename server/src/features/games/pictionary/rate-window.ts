/**
 * A fixed-window counter per key, in memory (the socket draw path has no HTTP request for the rate-limit
 * plugin to count). Windows of keys not seen for a while are dropped as they are met.
 */
export function createRateWindow(max: number, windowMs: number, now: () => number) {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    allow(key: string): boolean {
      const t = now();
      const w = windows.get(key);
      if (!w || t - w.start >= windowMs) {
        if (windows.size > 10_000)
          for (const [k, v] of windows) if (t - v.start >= windowMs) windows.delete(k);
        windows.set(key, { start: t, count: 1 });
        return true;
      }
      w.count += 1;
      return w.count <= max;
    },
  };
}

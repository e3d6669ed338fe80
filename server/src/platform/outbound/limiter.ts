/** A counting semaphore: at most `limit` holders at once, the rest wait in arrival order. */
export type Limiter = {
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
  readonly peak: number;
};

export function createLimiter(limit: number): Limiter {
  let active = 0;
  let peak = 0;
  const queue: (() => void)[] = [];
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else active -= 1;
  };
  const acquire = () =>
    new Promise<void>((resolve) => {
      if (active < limit) {
        active += 1;
        peak = Math.max(peak, active);
        resolve();
      } else queue.push(resolve);
    });
  return {
    async run(task) {
      await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    get peak() {
      return peak;
    },
  };
}

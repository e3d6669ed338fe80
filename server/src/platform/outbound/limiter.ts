/**
 * A counting semaphore shared fairly: at most `limit` holders at once and at most `perOwner` for any one
 * owner (a member); when a slot frees it goes to the waiting owner that holds the fewest (ties in turn,
 * round robin), so one member's long scan cannot make another's search wait behind all of it. A
 * waiter whose signal aborts leaves the queue at once.
 */
export type Limiter = {
  run<T>(task: () => Promise<T>, options?: { owner?: string; signal?: AbortSignal }): Promise<T>;
  readonly active: number;
  readonly waiting: number;
  readonly peak: number;
  /** Slots one owner holds now. */
  activeFor(owner: string): number;
};

type Waiter = { owner: string; grant: () => void };

const ANONYMOUS = '';

export function createLimiter(limit: number, perOwner = limit): Limiter {
  let active = 0;
  let peak = 0;
  const held = new Map<string, number>();
  // Owners with waiters, in turn order (a Map keeps insertion order; a served owner moves to the end).
  const queues = new Map<string, Waiter[]>();
  let waiting = 0;

  const holds = (owner: string) => held.get(owner) ?? 0;
  const take = (owner: string) => {
    active += 1;
    peak = Math.max(peak, active);
    held.set(owner, holds(owner) + 1);
  };
  const dispatch = () => {
    while (active < limit) {
      // The waiting owner holding the fewest slots goes first; ties go by turn.
      let pick: string | undefined;
      for (const owner of queues.keys()) {
        const n = holds(owner);
        if (n < perOwner && (pick === undefined || n < holds(pick))) pick = owner;
      }
      if (pick === undefined) return;
      const queue = queues.get(pick)!;
      const next = queue.shift()!;
      queues.delete(pick);
      if (queue.length > 0) queues.set(pick, queue);
      waiting -= 1;
      take(next.owner);
      next.grant();
    }
  };
  const release = (owner: string) => {
    active -= 1;
    const n = holds(owner) - 1;
    if (n > 0) held.set(owner, n);
    else held.delete(owner);
    dispatch();
  };
  const acquire = (owner: string, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      if (active < limit && holds(owner) < perOwner && !queues.has(owner)) {
        take(owner);
        return resolve();
      }
      const onAbort = () => {
        const queue = queues.get(owner);
        const at = queue?.indexOf(waiter) ?? -1;
        if (queue && at >= 0) {
          queue.splice(at, 1);
          waiting -= 1;
          if (queue.length === 0) queues.delete(owner);
        }
        reject(signal!.reason);
      };
      const waiter: Waiter = {
        owner,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const queue = queues.get(owner);
      if (queue) queue.push(waiter);
      else queues.set(owner, [waiter]);
      waiting += 1;
    });

  return {
    async run(task, options = {}) {
      const owner = options.owner ?? ANONYMOUS;
      await acquire(owner, options.signal);
      try {
        return await task();
      } finally {
        release(owner);
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return waiting;
    },
    get peak() {
      return peak;
    },
    activeFor: holds,
  };
}

import { fail } from '../../../platform/errors.ts';

/**
 * Runs jobs one (or `concurrency`) at a time, at most `maxPending` waiting, and one job per key: a second
 * request for a thumbnail being made waits for the same job. The work itself happens off the event loop
 * (libvips threads, an ffmpeg process); the queue bounds how much of it runs at once, so making
 * thumbnails never takes the CPU and memory other requests need.
 */
export class JobQueue<T> {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly byKey = new Map<string, Promise<T>>();
  private readonly concurrency: number;
  private readonly maxPending: number;

  constructor(concurrency: number, maxPending: number) {
    this.concurrency = concurrency;
    this.maxPending = maxPending;
  }

  /** The job's result; 503 when the queue is full. */
  run(key: string, job: () => Promise<T>): Promise<T> {
    const existing = this.byKey.get(key);
    if (existing) return existing;
    if (this.waiting.length >= this.maxPending) {
      throw fail('BUSY', 'Thumbnails are busy right now; try again in a moment', {
        'retry-after': '5',
      });
    }
    const promise = this.slot()
      .then(job)
      .finally(() => {
        this.byKey.delete(key);
        this.running--;
        this.waiting.shift()?.();
      });
    this.byKey.set(key, promise);
    return promise;
  }

  /** Jobs running or waiting (tests and metrics). */
  get size(): number {
    return this.running + this.waiting.length;
  }

  private slot(): Promise<void> {
    if (this.running < this.concurrency) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      this.waiting.push(() => {
        this.running++;
        resolve();
      }),
    );
  }
}

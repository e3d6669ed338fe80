import { securityTexts, UPLOAD_BUSY_RETRY_AFTER_SECONDS } from '@guildhall/common';
import { fail } from '../../platform/errors.ts';

/** The fairness limits of upload bodies (config: UPLOADS_PER_USER, UPLOAD_* variables). */
export type UploadFairness = {
  uploadsPerUser: number;
  idleTimeoutMs: number;
  minBytesPerSecond: number;
  rateWindowMs: number;
  bufferWaitMs: number;
};

/**
 * Uploads in flight per member on this instance. One member cannot hold more than `limit` bodies open,
 * so a single account cannot take every chunk buffer or connection slot (issue 15, upload starvation).
 */
export class UploadSlots {
  private readonly limit: number;
  private readonly inFlight = new Map<string, number>();

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Takes a slot for `userId` (429 when all are taken); the returned function gives it back once. */
  take(userId: string): () => void {
    const held = this.inFlight.get(userId) ?? 0;
    if (held >= this.limit) {
      throw fail('TOO_MANY_UPLOADS', securityTexts.tooManyUploads(this.limit));
    }
    this.inFlight.set(userId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = (this.inFlight.get(userId) ?? 1) - 1;
      if (now <= 0) this.inFlight.delete(userId);
      else this.inFlight.set(userId, now);
    };
  }

  held(userId: string): number {
    return this.inFlight.get(userId) ?? 0;
  }
}

/** A body dropped for sending nothing for too long, or too little over the rate window. */
export class UploadTooSlowError extends Error {}

export const uploadTooSlow = () => fail('UPLOAD_TOO_SLOW', securityTexts.uploadTooSlow);

export const uploadBusy = () =>
  fail('UPLOAD_BUSY', securityTexts.uploadBusy, {
    'retry-after': String(UPLOAD_BUSY_RETRY_AFTER_SECONDS),
  });

/**
 * Passes a body's pieces through while timing the client: only the time spent waiting for the next
 * piece counts (time we spend storing, or waiting for a buffer, is ours, not the client's). A wait
 * longer than `idleTimeoutMs`, or fewer than `minBytesPerSecond` over the last `rateWindowMs` of
 * waiting, calls `onStall` (which cuts the connection) and throws UploadTooSlowError, so the caller's
 * cleanup runs. Any other failure of the source is thrown as `mapError` makes it (the upload route
 * turns a malformed body into a 400).
 *
 * An iterator written out rather than an async generator: a gigabyte arrives in ~16,000 pieces, and
 * the generator (plus the one that mapped errors around it) cost the upload's main thread 0.1–0.2
 * CPU-s per GiB in promises (bench/files); this makes one promise per piece.
 */
export function watchBody<T extends Uint8Array>(
  source: AsyncIterable<T>,
  limits: Pick<UploadFairness, 'idleTimeoutMs' | 'minBytesPerSecond' | 'rateWindowMs'>,
  onStall: () => void,
  mapError: (e: unknown) => unknown = (e) => e,
): AsyncIterableIterator<T> {
  const { idleTimeoutMs, minBytesPerSecond, rateWindowMs } = limits;
  const needed = (minBytesPerSecond * rateWindowMs) / 1000;
  const tick = Math.max(20, Math.min(idleTimeoutMs, rateWindowMs) / 10);
  const it = source[Symbol.asyncIterator]();
  /** Client time (ms spent waiting for pieces) and bytes received at each piece. */
  const samples: { at: number; bytes: number }[] = [{ at: 0, bytes: 0 }];
  let clientMs = 0;
  let bytes = 0;
  /** When the wait for the current piece began (null between pieces, while the consumer works). */
  let waitingSince: number | null = null;
  /** The read being waited for: settled by the source, or rejected by a stall. */
  let pending: { reject: (e: unknown) => void } | null = null;
  let ended = false;

  /** True when the last `rateWindowMs` of client time brought fewer than `needed` bytes. */
  const tooSlowAt = (now: number): boolean => {
    if (now < rateWindowMs) return false;
    while (samples.length > 1 && samples[1]!.at <= now - rateWindowMs) samples.shift();
    return bytes - samples[0]!.bytes < needed;
  };

  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(timer);
    // Closing the source lets it release what it holds. Not awaited: after a stall a read is still
    // pending, and the source settles only once the cut connection errors it.
    it.return?.()?.catch(() => {});
  };
  const stall = (): UploadTooSlowError => {
    end();
    onStall();
    return new UploadTooSlowError('upload body too slow');
  };

  // One timer for the whole body, not one per piece (a timer and a race per piece were most of the
  // upload's garbage).
  const timer = setInterval(() => {
    if (waitingSince === null || !pending) return;
    const waited = Date.now() - waitingSince;
    if (waited >= idleTimeoutMs || tooSlowAt(clientMs + waited)) {
      const waiter = pending;
      pending = null;
      waiter.reject(stall());
    }
  }, tick);

  const iterator: AsyncIterableIterator<T> = {
    next() {
      if (ended) return Promise.resolve({ done: true, value: undefined });
      waitingSince = Date.now();
      return new Promise<IteratorResult<T>>((resolve, reject) => {
        const waiter = { reject };
        pending = waiter;
        it.next().then(
          (result) => {
            if (pending !== waiter) return; // a stall answered first
            pending = null;
            clientMs += Date.now() - (waitingSince ?? Date.now());
            waitingSince = null;
            if (result.done) {
              end();
              resolve(result);
              return;
            }
            // One sample per 1/60 of the window at most, so a fast upload's pieces do not pile up; the
            // check then counts up to one bucket more than the window (lenient, never harsher).
            if (clientMs - samples.at(-1)!.at >= rateWindowMs / 60) samples.push({ at: clientMs, bytes });
            bytes += result.value.length;
            if (tooSlowAt(clientMs)) reject(stall());
            else resolve(result);
          },
          (e: unknown) => {
            if (pending !== waiter) return; // the source fails once a stall has cut the connection
            pending = null;
            end();
            reject(mapError(e));
          },
        );
      });
    },
    return() {
      end();
      return Promise.resolve({ done: true, value: undefined });
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

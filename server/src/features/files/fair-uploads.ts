import { securityTexts, UPLOAD_BUSY_RETRY_AFTER_SECONDS } from '@guildhall/common';
import { HttpError } from '../../platform/errors.ts';

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
      throw new HttpError(429, securityTexts.tooManyUploads(this.limit), 'TOO_MANY_UPLOADS');
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

export const uploadTooSlow = () => new HttpError(408, securityTexts.uploadTooSlow, 'UPLOAD_TOO_SLOW');

export const uploadBusy = () =>
  new HttpError(503, securityTexts.uploadBusy, 'UPLOAD_BUSY', {
    'retry-after': String(UPLOAD_BUSY_RETRY_AFTER_SECONDS),
  });

/**
 * Passes a body's pieces through while timing the client: only the time spent waiting for the next
 * piece counts (time we spend storing, or waiting for a buffer, is ours, not the client's). A wait
 * longer than `idleTimeoutMs`, or fewer than `minBytesPerSecond` over the last `rateWindowMs` of
 * waiting, calls `onStall` (which cuts the connection) and throws UploadTooSlowError, so the caller's
 * cleanup runs.
 */
export async function* watchBody<T extends Uint8Array>(
  source: AsyncIterable<T>,
  limits: Pick<UploadFairness, 'idleTimeoutMs' | 'minBytesPerSecond' | 'rateWindowMs'>,
  onStall: () => void,
): AsyncGenerator<T> {
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

  /** True when the last `rateWindowMs` of client time brought fewer than `needed` bytes. */
  const tooSlowAt = (now: number): boolean => {
    if (now < rateWindowMs) return false;
    while (samples.length > 1 && samples[1]!.at <= now - rateWindowMs) samples.shift();
    return bytes - samples[0]!.bytes < needed;
  };

  // One timer for the whole body, not one per piece: a gigabyte arrives in ~16,000 pieces, and a timer
  // and a race per piece were most of the upload's garbage. (Not a race against one long-lived promise
  // either: each race would leave a reaction on it holding its piece until the body ends.)
  let wake: ((stalled: 'stalled') => void) | null = null;
  const timer = setInterval(() => {
    if (waitingSince === null) return;
    const waited = Date.now() - waitingSince;
    if (waited >= idleTimeoutMs || tooSlowAt(clientMs + waited)) wake?.('stalled');
  }, tick);
  try {
    while (true) {
      waitingSince = Date.now();
      const next = it.next();
      const result = await new Promise<IteratorResult<T> | 'stalled'>((resolve, reject) => {
        wake = resolve;
        next.then(resolve, reject);
      });
      wake = null;
      if (result === 'stalled') {
        next.catch(() => {}); // the source fails once the connection is cut; nobody reads it any more
        onStall();
        throw new UploadTooSlowError('upload body too slow');
      }
      clientMs += Date.now() - waitingSince;
      waitingSince = null;
      if (result.done) return;
      // One sample per 1/60 of the window at most, so a fast upload's pieces do not pile up; the
      // check then counts up to one bucket more than the window (lenient, never harsher).
      if (clientMs - samples.at(-1)!.at >= rateWindowMs / 60) samples.push({ at: clientMs, bytes });
      bytes += result.value.length;
      if (tooSlowAt(clientMs)) {
        onStall();
        throw new UploadTooSlowError('upload body too slow');
      }
      yield result.value;
    }
  } finally {
    clearInterval(timer);
    // Closing the source (an early return or a throw) lets it release what it holds. Not awaited: after
    // a stall a read is still pending, and the source settles only once the cut connection errors it.
    it.return?.()?.catch(() => {});
  }
}

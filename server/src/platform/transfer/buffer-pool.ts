import { allocateDirectBuffer } from '../blob-store/index.ts';

/**
 * Reusable shared chunk buffers. Uploads copy incoming bytes into one until it holds a whole chunk,
 * then the store writes it (the local disk straight from it, with O_DIRECT: the buffers start on a
 * page boundary) and the hash threads read it in place. The pool caps how many exist, so
 * memory stays bounded however many uploads run (an upload waits for a buffer, which slows its
 * socket reads through backpressure).
 */
export class ChunkBufferPool {
  readonly bufferBytes: number;
  private readonly maxBuffers: number;
  private readonly keepFree: number;
  private readonly free: SharedArrayBuffer[] = [];
  private readonly waiting: ((b: SharedArrayBuffer) => void)[] = [];
  /** How each waiter is failed when the pool closes. */
  private readonly failWaiter = new Map<(b: SharedArrayBuffer) => void, (e: Error) => void>();
  private allocated = 0;
  private closed = false;

  constructor(bufferBytes: number, maxBuffers: number, keepFree = 2) {
    this.bufferBytes = bufferBytes;
    this.maxBuffers = maxBuffers;
    this.keepFree = keepFree;
  }

  /**
   * A buffer, once one is free. With `timeoutMs`, waiting longer rejects with BufferWaitTimeout, so
   * a caller answers "busy, retry" instead of hanging behind uploads that hold every buffer.
   */
  async acquire(timeoutMs?: number): Promise<SharedArrayBuffer> {
    if (this.closed) throw new Error('the buffer pool is closed (the server is stopping)');
    const now = this.tryAcquire();
    if (now) return now;
    return new Promise((resolve, reject) => {
      const take = (b: SharedArrayBuffer) => {
        clearTimeout(timer);
        this.failWaiter.delete(take);
        resolve(b);
      };
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              const at = this.waiting.indexOf(take);
              if (at >= 0) this.waiting.splice(at, 1);
              this.failWaiter.delete(take);
              reject(new BufferWaitTimeout(`no chunk buffer freed within ${timeoutMs} ms`));
            }, timeoutMs);
      this.failWaiter.set(take, (e) => {
        clearTimeout(timer);
        reject(e);
      });
      this.waiting.push(take);
    });
  }

  /**
   * On stop: fails whoever still waits (their timers cleared, so nothing outlives the app) and drops
   * the free buffers; buffers still lent out are dropped when returned.
   */
  close(): void {
    this.closed = true;
    for (const take of this.waiting.splice(0)) {
      this.failWaiter.get(take)?.(new Error('the buffer pool is closed (the server is stopping)'));
    }
    this.failWaiter.clear();
    this.allocated -= this.free.length;
    this.free.length = 0;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** A buffer if one is free or may still be made, without waiting; null otherwise. */
  tryAcquire(): SharedArrayBuffer | null {
    const reused = this.free.pop();
    if (reused) return reused;
    if (this.allocated >= this.maxBuffers) return null;
    this.allocated += 1;
    return allocateDirectBuffer(this.bufferBytes);
  }

  /** Buffers lent out now (tests and metrics). */
  get inUse(): number {
    return this.allocated - this.free.length;
  }

  release(buffer: SharedArrayBuffer): void {
    const next = this.waiting.shift();
    if (next) {
      next(buffer);
      return;
    }
    if (!this.closed && this.free.length < this.keepFree) this.free.push(buffer);
    else this.allocated -= 1; // dropped: the garbage collector frees it
  }
}

/** No chunk buffer freed in time (every one is held by other uploads). */
export class BufferWaitTimeout extends Error {}

/**
 * Reusable shared chunk buffers. Uploads copy incoming bytes into one until it holds a whole chunk,
 * then the store writes it and the hash threads read it in place. The pool caps how many exist, so
 * memory stays bounded however many uploads run (an upload waits for a buffer, which slows its
 * socket reads through backpressure).
 */
export class ChunkBufferPool {
  readonly bufferBytes: number;
  private readonly maxBuffers: number;
  private readonly keepFree: number;
  private readonly free: SharedArrayBuffer[] = [];
  private readonly waiting: ((b: SharedArrayBuffer) => void)[] = [];
  private allocated = 0;

  constructor(bufferBytes: number, maxBuffers: number, keepFree = 2) {
    this.bufferBytes = bufferBytes;
    this.maxBuffers = maxBuffers;
    this.keepFree = keepFree;
  }

  async acquire(): Promise<SharedArrayBuffer> {
    const reused = this.free.pop();
    if (reused) return reused;
    if (this.allocated < this.maxBuffers) {
      this.allocated += 1;
      return new SharedArrayBuffer(this.bufferBytes);
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(buffer: SharedArrayBuffer): void {
    const next = this.waiting.shift();
    if (next) {
      next(buffer);
      return;
    }
    if (this.free.length < this.keepFree) this.free.push(buffer);
    else this.allocated -= 1; // dropped: the garbage collector frees it
  }
}

import { Worker } from 'node:worker_threads';
import { crc32cHex } from '../blob-store/index.ts';
import type { HashRequest, HashResponse } from './hash-worker.ts';

/**
 * The worker thread's module (hash-worker.ts): the TypeScript source in development and tests, the
 * bundled hash-worker.mjs beside the server bundle in production (server/bundle.ts lists it as an entry).
 */
const WORKER_URL = import.meta.url.endsWith('.ts')
  ? new URL('./hash-worker.ts', import.meta.url)
  : new URL('./hash-worker.mjs', import.meta.url);

/** A request as the caller makes it; the thread adds the id. */
type Request =
  | { op: 'chunk'; session: number; buffer: SharedArrayBuffer; length: number }
  | { op: 'final'; session: number };

type Response = HashResponse;

type Pending = { resolve: (r: Response) => void; reject: (e: Error) => void };

/** One worker thread answering hash requests in order; restarted if it ever dies (until closed). */
class HashThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  /** Whether a thread is running now. */
  get alive(): boolean {
    return this.worker !== null;
  }

  /** Ends the thread (waiting for it to exit); requests in flight fail, later ones are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    await worker.terminate(); // its 'exit' listener fails what was pending and forgets the worker
    this.worker = null;
  }

  request(message: Request): Promise<Response> {
    const worker = this.ensure();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...message, id } satisfies HashRequest);
    });
  }

  drop(session: number): void {
    this.worker?.postMessage({ op: 'drop', session });
  }

  start(): void {
    this.ensure();
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    if (this.closed) throw new Error('the hash threads are closed (the server is stopping)');
    const worker = new Worker(WORKER_URL);
    worker.on('message', (m: Response) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error) p.reject(new Error(`hashing failed: ${m.error}`));
      else p.resolve(m);
    });
    const fail = (e: Error) => {
      this.worker = null;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`hash worker exited with code ${code}`)));
    // Never keeps the process alive. After the listeners: adding a 'message' listener refs the worker again.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

/**
 * A file's SHA-256, computed on a hash thread chunk by chunk: feed whole chunks in order, then
 * `final()`; `drop()` forgets it. Each `chunk()` also answers that chunk's CRC32C.
 */
export type FileHash = {
  /** Hashes the first `length` bytes of a shared buffer; they must stay unchanged until it resolves. */
  chunk(buffer: SharedArrayBuffer, length: number): Promise<{ crc32c: string }>;
  /** The hex digest of everything fed (the stream is finished). */
  final(): Promise<string>;
  drop(): void;
};

/**
 * The hashing of uploads on worker threads, so an upload's main thread only parses and writes. Each
 * file is hashed on one thread (its chunks in order); files alternate between two threads, so two
 * uploads at once use two cores. The threads read the shared chunk buffers in place.
 */
export class HashPool {
  private readonly threads = [new HashThread(), new HashThread()];
  private nextSession = 1;

  /** A new file hash. */
  openFileHash(): FileHash {
    const session = this.nextSession++;
    const thread = this.threads[session % this.threads.length]!;
    return {
      chunk: async (buffer, length) => {
        const r = await thread.request({ op: 'chunk', session, buffer, length });
        return { crc32c: crc32cHex(r.crc!) };
      },
      final: async () => (await thread.request({ op: 'final', session })).digest!,
      drop: () => thread.drop(session),
    };
  }

  /** Starts the threads now (at server start), so the first upload does not pay for it. */
  warmUp(): void {
    for (const t of this.threads) t.start();
  }

  /** Threads running now (0 before first use and after close). */
  get liveThreads(): number {
    return this.threads.filter((t) => t.alive).length;
  }

  get closed(): boolean {
    return this.isClosed;
  }
  private isClosed = false;

  /** Ends both threads: the platform calls it when the app closes, after every feature stopped. */
  async close(): Promise<void> {
    this.isClosed = true;
    await Promise.all(this.threads.map((t) => t.close()));
  }
}

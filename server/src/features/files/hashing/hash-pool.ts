import { Worker } from 'node:worker_threads';

/**
 * The worker's code, as plain JavaScript evaluated in the thread: it loads no TypeScript tooling, which
 * keeps each thread at about 10 MiB. Messages carry views of shared chunk buffers (no copies):
 *   {op: 'update', id, session, buffer, offset, length} → {id}      feed bytes to a streaming hash
 *   {op: 'final', id, session}                          → {id, digest}
 *   {op: 'drop', session}                               → nothing  (an upload that failed)
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const sessions = new Map();
parentPort.on('message', (m) => {
  if (m.op === 'drop') { sessions.delete(m.session); return; }
  try {
    if (m.op === 'update') {
      let hash = sessions.get(m.session);
      if (!hash) { hash = createHash('sha256'); sessions.set(m.session, hash); }
      hash.update(new Uint8Array(m.buffer, m.offset, m.length));
      parentPort.postMessage({ id: m.id });
    } else {
      const hash = sessions.get(m.session) || createHash('sha256');
      sessions.delete(m.session);
      parentPort.postMessage({ id: m.id, digest: hash.digest('hex') });
    }
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: String(e && e.message || e) });
  }
});
`;

type HashRequest =
  | { op: 'update'; id: number; session: number; buffer: SharedArrayBuffer; offset: number; length: number }
  | { op: 'final'; id: number; session: number }
  | { op: 'drop'; session: number };

type HashResponse = { id: number; digest?: string; error?: string };

type Request =
  | { op: 'update'; session: number; buffer: SharedArrayBuffer; offset: number; length: number }
  | { op: 'final'; session: number };

type Pending = { resolve: (digest: string | undefined) => void; reject: (e: Error) => void };

/** One worker thread answering hash requests in order; restarted if it ever dies. */
class HashThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  request(message: Request): Promise<string | undefined> {
    const worker = this.ensure();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });
  }

  post(message: HashRequest): void {
    this.ensure().postMessage(message);
  }

  start(): void {
    this.ensure();
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    // Evaluated source, not a module file: nothing to resolve or bundle.
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref(); // never keeps the process alive
    worker.on('message', (m: HashResponse) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error) p.reject(new Error(`hashing failed: ${m.error}`));
      else p.resolve(m.digest);
    });
    const fail = (e: Error) => {
      this.worker = null;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`hash worker exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }
}

/** A SHA-256 computed on a hash thread: feed it in order, then `final()`; `drop()` forgets it. */
export type HashStream = {
  /** Hashes `length` bytes of a shared buffer from `offset`; the bytes must stay unchanged until it resolves. */
  update(buffer: SharedArrayBuffer, offset: number, length: number): Promise<void>;
  /** The hex digest of everything fed. */
  final(): Promise<string>;
  drop(): void;
};

/**
 * SHA-256 of chunks and whole files on two worker threads, so an upload's main thread only parses and
 * writes: one thread hashes each chunk, the other the whole file. Both read the shared chunk buffers in
 * place, and are fed slices as a chunk fills, so hashing runs alongside receiving.
 */
export class HashPool {
  private readonly chunkThread = new HashThread();
  private readonly fileThread = new HashThread();
  private nextSession = 1;

  /** A hash of one chunk (on the chunk thread). */
  openChunkHash(): HashStream {
    return this.open(this.chunkThread);
  }

  /** A hash of a whole file (on the file thread). */
  openFileHash(): HashStream {
    return this.open(this.fileThread);
  }

  private open(thread: HashThread): HashStream {
    const session = this.nextSession++;
    return {
      update: (buffer, offset, length) =>
        thread.request({ op: 'update', session, buffer, offset, length }).then(() => undefined),
      final: async () => (await thread.request({ op: 'final', session }))!,
      drop: () => thread.post({ op: 'drop', session }),
    };
  }

  /** Starts both threads now (at server start), so the first upload does not pay for it. */
  warmUp(): void {
    this.chunkThread.start();
    this.fileThread.start();
  }
}

let shared: HashPool | null = null;
/** The process-wide pool (threads start on first use). */
export function hashPool(): HashPool {
  shared ??= new HashPool();
  return shared;
}

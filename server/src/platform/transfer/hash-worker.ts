/**
 * The hash thread (started by hash-pool.ts): it loads only node:crypto and the native CRC32C, which
 * keeps each thread small. Messages carry views of shared chunk buffers (no copies):
 *   {op: 'chunk', id, session, buffer, length} → {id, crc}   a whole chunk: its CRC32C, and the bytes
 *                                                           fed to the file's streaming SHA-256
 *   {op: 'final', id, session}                 → {id, digest}
 *   {op: 'drop', session}                      → nothing  (an upload that failed or was abandoned)
 * One pass over each chunk computes both (the CRC at ≈ 8 GB/s in hardware, the SHA-256 at ≈ 2 GB/s
 * with SHA-NI), while the chunk's bytes are still in the CPU's cache.
 */
import { createHash, type Hash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { crc32c } from '@node-rs/crc32';

export type HashRequest =
  | { op: 'chunk'; id: number; session: number; buffer: SharedArrayBuffer; length: number }
  | { op: 'final'; id: number; session: number }
  | { op: 'drop'; session: number };

export type HashResponse = { id: number; crc?: number; digest?: string; error?: string };

const port = parentPort;
if (port) {
  const sessions = new Map<number, Hash>();
  const answer = (r: HashResponse) => port.postMessage(r);
  port.on('message', (m: HashRequest) => {
    if (m.op === 'drop') {
      sessions.delete(m.session);
      return;
    }
    try {
      if (m.op === 'chunk') {
        let hash = sessions.get(m.session);
        if (!hash) {
          hash = createHash('sha256');
          sessions.set(m.session, hash);
        }
        const bytes = Buffer.from(m.buffer, 0, m.length);
        hash.update(bytes);
        answer({ id: m.id, crc: crc32c(bytes) });
      } else {
        const hash = sessions.get(m.session) ?? createHash('sha256');
        sessions.delete(m.session);
        answer({ id: m.id, digest: hash.digest('hex') });
      }
    } catch (e) {
      answer({ id: m.id, error: e instanceof Error ? e.message : String(e) });
    }
  });
}

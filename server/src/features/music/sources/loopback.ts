import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/index.ts';
import type { BlobStore } from '../../../platform/blob-store/index.ts';
import { parseRange } from '../../../platform/transfer/index.ts';
import { LoopbackServer } from '../../../platform/transfer/loopback-server.ts';
import { type LibraryFile, openLibraryFile } from '../../files/index.ts';

/** How long a track's address stays valid (longer than any song; a new one is made per ffmpeg start). */
const TICKET_TTL_MS = 12 * 60 * 60 * 1000;

/**
 * Library files for ffmpeg over HTTP on 127.0.0.1, with Range: ffmpeg then seeks inside the file (`-ss`
 * jumps to the byte it needs) instead of decoding everything before the position from a pipe, so a seek
 * or an effect change late in a long file starts as fast as one at the start. Each address carries an
 * unguessable ticket for one file and expires; nothing else is served, and only on loopback.
 */
export class LibraryLoopback {
  private readonly server = new LoopbackServer((req, res) => void this.serve(req, res));
  private readonly tickets = new Map<string, { file: LibraryFile; expires: number }>();
  private readonly db: Db;
  private readonly store: BlobStore;
  private readonly log: FastifyBaseLogger;

  constructor(db: Db, store: BlobStore, log: FastifyBaseLogger) {
    this.db = db;
    this.store = store;
    this.log = log;
  }

  /** An address ffmpeg can read the file from. */
  async urlFor(file: LibraryFile): Promise<string> {
    const port = await this.server.port();
    const now = Date.now();
    for (const [k, t] of this.tickets) if (t.expires < now) this.tickets.delete(k);
    const ticket = randomBytes(18).toString('base64url');
    this.tickets.set(ticket, { file, expires: now + TICKET_TTL_MS });
    return `http://127.0.0.1:${port}/library/${ticket}`;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const ticket = /^\/library\/([\w-]{24})$/.exec(req.url ?? '')?.[1];
    const entry = ticket ? this.tickets.get(ticket) : undefined;
    if (!entry || entry.expires < Date.now() || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404).end();
      return;
    }
    const size = entry.file.size;
    const range = parseRange(req.headers.range, size);
    if (range === 'unsatisfiable') {
      res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
      return;
    }
    const start = range ? range.start : 0;
    const end = range ? range.end : size - 1;
    const headers = {
      'accept-ranges': 'bytes',
      'content-length': String(end - start + 1),
      'content-type': 'application/octet-stream',
    };
    if (range) res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${size}` });
    else res.writeHead(200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    try {
      await pipeline(await openLibraryFile(this.db, this.store, entry.file, { start, end }), res);
    } catch (err) {
      // ffmpeg closes the connection when it seeks or stops: expected, not worth a warning.
      if ((err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
        this.log.debug({ err: (err as Error).message }, 'music: library loopback read ended');
      }
      res.destroy();
    }
  }
}

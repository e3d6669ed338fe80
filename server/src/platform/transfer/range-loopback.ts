import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../feature.ts';
import { LoopbackServer } from './loopback-server.ts';
import { parseRange } from './range.ts';

/** Opens the bytes [start, end] of the one file an address was made for. */
export type OpenRange = (start: number, end: number) => Promise<Readable>;

type Entry = { size: number; open: OpenRange; expires: number };

/**
 * Stored bytes for a child process (ffmpeg) over HTTP on 127.0.0.1, with Range, so it can seek inside the
 * file (a video's `moov` atom at its end, a song's position) instead of reading everything through a pipe.
 * Each address carries an unguessable ticket for one file and lives until `release()` or its time limit;
 * nothing else is served, and only on loopback. Used by the thumbnails (video posters) and by music
 * (library songs); the bytes come from the caller's `open`, so the rules of who may read what stay in
 * the features.
 */
export class RangeLoopback {
  private readonly server = new LoopbackServer((req, res) => void this.serve(req, res));
  private readonly entries = new Map<string, Entry>();
  private readonly clock: Clock;
  private readonly onReadError: (err: unknown) => void;

  constructor(clock: Clock, onReadError: (err: unknown) => void = () => {}) {
    this.clock = clock;
    this.onReadError = onReadError;
  }

  /** An address for `size` bytes read through `open`, valid until `release()` or for `ttlMs`. */
  async open(size: number, open: OpenRange, ttlMs: number): Promise<{ url: string; release: () => void }> {
    const port = await this.server.port();
    const now = this.clock.now();
    for (const [k, e] of this.entries) if (e.expires < now) this.entries.delete(k);
    const ticket = randomBytes(18).toString('base64url');
    this.entries.set(ticket, { size, open, expires: now + ttlMs });
    return { url: `http://127.0.0.1:${port}/t/${ticket}`, release: () => this.entries.delete(ticket) };
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    res.on('error', () => {}); // ffmpeg hangs up when it has what it needs
    const ticket = /^\/t\/([\w-]{24})$/.exec(req.url ?? '')?.[1];
    const entry = ticket ? this.entries.get(ticket) : undefined;
    if (!entry || entry.expires < this.clock.now() || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404).end();
      return;
    }
    const range = parseRange(req.headers.range, entry.size);
    if (range === 'unsatisfiable') {
      res.writeHead(416, { 'content-range': `bytes */${entry.size}` }).end();
      return;
    }
    const start = range ? range.start : 0;
    const end = range ? range.end : entry.size - 1;
    const headers = {
      'accept-ranges': 'bytes',
      'content-length': String(end - start + 1),
      'content-type': 'application/octet-stream',
    };
    if (range) res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${entry.size}` });
    else res.writeHead(200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    try {
      await pipeline(await entry.open(start, end), res);
    } catch (err) {
      // ffmpeg closes the connection when it seeks or stops: expected, not worth a warning.
      if ((err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') this.onReadError(err);
      res.destroy();
    }
  }
}

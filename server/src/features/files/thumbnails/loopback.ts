import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseRange } from '../../../platform/transfer/index.ts';
import { LoopbackServer } from '../../../platform/transfer/loopback-server.ts';

/** Opens the bytes [start, end] of the file an address was made for. */
export type OpenRange = (start: number, end: number) => Promise<Readable>;

/**
 * A file for ffmpeg over HTTP on 127.0.0.1 with Range, so it can seek to the `moov` atom at a video's
 * end (phones write it there) instead of reading the whole file through a pipe. Each address carries
 * an unguessable token for one file and lives only while its poster is being made.
 */
export class FileLoopback {
  private readonly server = new LoopbackServer((req, res) => void this.serve(req, res));
  private readonly files = new Map<string, { size: number; open: OpenRange }>();

  /** An address for the file, valid until `release()` is called. */
  async open(size: number, open: OpenRange): Promise<{ url: string; release: () => void }> {
    const port = await this.server.port();
    const token = randomBytes(18).toString('base64url');
    this.files.set(token, { size, open });
    return { url: `http://127.0.0.1:${port}/f/${token}`, release: () => this.files.delete(token) };
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    res.on('error', () => {}); // ffmpeg hangs up when it has what it needs
    const token = /^\/f\/([\w-]{24})$/.exec(req.url ?? '')?.[1];
    const entry = token ? this.files.get(token) : undefined;
    if (!entry || (req.method !== 'GET' && req.method !== 'HEAD')) {
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
    } catch {
      res.destroy(); // a seek or the end of ffmpeg's interest; the poster job reports real failures
    }
  }
}

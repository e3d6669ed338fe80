import type http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * node:http as Node's own module object: an ESM import of it builds its namespace from every export,
 * and reading the WebSocket one loads Node's internal undici (tens of ms at start-up, bench/startup).
 */
const { createServer } = process.getBuiltinModule('node:http');

/**
 * An HTTP server on 127.0.0.1 with a port picked by the system, started on first use and never keeping
 * the process alive: how a feature hands stored bytes to a child process (ffmpeg) that reads a URL.
 */
export class LoopbackServer {
  private server: http.Server | null = null;
  private starting: Promise<number> | null = null;
  private readonly handle: (req: http.IncomingMessage, res: http.ServerResponse) => void;

  constructor(handle: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
    this.handle = handle;
  }

  /** The port, once listening (the first call starts the server). */
  port(): Promise<number> {
    this.starting ??= new Promise<number>((resolve, reject) => {
      const server = createServer((req, res) => this.handle(req, res));
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
      server.unref(); // never keeps the process alive
      this.server = server;
    });
    return this.starting;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.starting = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

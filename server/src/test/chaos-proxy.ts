import net from 'node:net';

/**
 * A TCP proxy on loopback in front of a fake service (s3rver, the fake Discord), to break it while the
 * portal uses it: `pass` forwards; `freeze` accepts and forwards nothing (held connections stop too,
 * as a hung service or a dropped network does); `error` answers every new request with a canned HTTP
 * error (a 5xx) and closes; `refuse` resets new connections. Switching mode cuts what was open, so the
 * client's pooled connections meet the new behaviour at once.
 */
export type ChaosMode = 'pass' | 'freeze' | 'error' | 'refuse';

export type ChaosProxy = {
  /** http://127.0.0.1:<port> */
  url: string;
  mode: ChaosMode;
  set(mode: ChaosMode, error?: { status: number; contentType: string; body: string }): void;
  /** Connections accepted since start. */
  connections: number;
  close(): Promise<void>;
};

export async function startChaosProxy(target: { host: string; port: number }): Promise<ChaosProxy> {
  const open = new Set<net.Socket>();
  let canned = { status: 503, contentType: 'text/plain', body: 'Service Unavailable' };
  const state: { mode: ChaosMode; connections: number } = { mode: 'pass', connections: 0 };

  const answerWithError = (client: net.Socket) => {
    let head = '';
    client.on('data', (d: Buffer) => {
      if (head.includes('\r\n\r\n')) return;
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      const reason = canned.status === 429 ? 'Too Many Requests' : 'Service Unavailable';
      client.end(
        `HTTP/1.1 ${canned.status} ${reason}\r\ncontent-type: ${canned.contentType}\r\n` +
          `content-length: ${Buffer.byteLength(canned.body)}\r\nconnection: close\r\n\r\n${canned.body}`,
      );
    });
  };

  const server = net.createServer((client) => {
    state.connections += 1;
    open.add(client);
    client.on('error', () => {});
    client.once('close', () => open.delete(client));
    if (state.mode === 'refuse') return client.resetAndDestroy();
    if (state.mode === 'freeze') return client.pause(); // held, never answered
    if (state.mode === 'error') return answerWithError(client);
    const upstream = net.connect(target.port, target.host);
    open.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.once('close', () => {
      open.delete(upstream);
      client.destroy();
    });
    client.once('close', () => upstream.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    get connections() {
      return state.connections;
    },
    set(mode, error) {
      state.mode = mode;
      if (error) canned = error;
      if (mode === 'freeze') {
        // Everything in flight stops where it is: nothing more passes either way.
        for (const s of open) {
          s.unpipe();
          s.pause();
        }
        return;
      }
      for (const s of open) s.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}

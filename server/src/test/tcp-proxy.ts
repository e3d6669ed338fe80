import net from 'node:net';

/**
 * A TCP pass-through to a local service (PostgreSQL, Redis) that a chaos test can take down and bring
 * back on the same port: `down()` cuts every connection and refuses new ones, as a restarting server
 * does; `up()` listens again.
 */
export type TcpProxy = { port: number; down(): Promise<void>; up(): Promise<void>; close(): Promise<void> };

export async function createTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer((client) => {
        const upstream = net.connect(targetPort, targetHost);
        for (const socket of [client, upstream]) {
          open.add(socket);
          socket.on('close', () => open.delete(socket));
          // A cut connection is the point of the exercise; the other side is ended with it.
          socket.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream);
        upstream.pipe(client);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as net.AddressInfo).port;
        server = s;
        resolve();
      });
    });

  const down = () =>
    new Promise<void>((resolve) => {
      const s = server;
      server = null;
      for (const socket of open) socket.destroy();
      if (!s) return resolve();
      s.close(() => resolve());
    });

  await listen();
  return {
    get port() {
      return port;
    },
    down,
    up: listen,
    close: down,
  };
}

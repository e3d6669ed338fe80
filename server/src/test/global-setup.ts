import net from 'node:net';
import { prepareTemplates } from './template-db.ts';

/** Resolves when something accepts TCP connections at the URL's host and port. */
function answers(url: string, defaultPort: number): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port || defaultPort), timeout: 3000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('timeout', () => socket.destroy(new Error('timed out')));
    socket.once('error', (err) => reject(new Error(`${url} does not answer: ${err.message}`)));
  });
}

/**
 * Vitest global setup (vitest.config.ts): in CI, PostgreSQL and Redis must answer (their suites never
 * skip there); then the run's template databases.
 */
export default async function setup(): Promise<() => Promise<void>> {
  if (process.env.CI === 'true') {
    await answers(process.env.TEST_DATABASE_URL ?? '', 5432);
    await answers(process.env.TEST_REDIS_URL ?? '', 6379);
  }
  return prepareTemplates();
}

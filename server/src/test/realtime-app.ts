import type { Socket } from 'socket.io-client';
import { afterEach, beforeEach } from 'vitest';
import { connectClient, listen } from '../platform/realtime/testing.ts';
import { createTestApp, type TestContext } from './app.ts';

/**
 * The realtime suites' setup: a fresh app listening on a port for each test, handed to `use`, and
 * sockets that close after it. Call at the top of a test file; `connect` opens a tracked socket.
 */
export function useRealtimeApp(use: (ctx: TestContext) => void): {
  connect: (token: string, reconnection?: boolean) => Promise<Socket>;
} {
  let url = '';
  let ctx: TestContext | null = null;
  const sockets: Socket[] = [];
  beforeEach(async () => {
    ctx = await createTestApp();
    url = await listen(ctx.app);
    use(ctx);
  });
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.close();
    await ctx?.close();
  });
  return {
    async connect(token, reconnection = false) {
      const socket = await connectClient(url, token, { reconnection });
      sockets.push(socket);
      return socket;
    },
  };
}

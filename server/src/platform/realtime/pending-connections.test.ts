import { REALTIME_PATH } from '@guildhall/common';
import type { Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, type TestContext } from '../../test/app.ts';
import { DEFAULT_SOCKET_LIMITS } from './socket-limits.ts';
import { connectClient, listen } from './testing.ts';

let ctx: TestContext | undefined;
const cleanup: (() => void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0)) f();
  await ctx?.close();
  ctx = undefined;
});

type Raw = { ws: WebSocket; closed: Promise<number> };

/** A raw engine.io websocket that never sends the Socket.IO handshake (no token): resolves once it is open. */
function openRaw(url: string): Promise<Raw> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}${REALTIME_PATH}/?EIO=4&transport=websocket`);
  cleanup.push(() => ws.terminate());
  const started = Date.now();
  const closed = new Promise<number>((resolve) => ws.once('close', () => resolve(Date.now() - started)));
  return new Promise((resolve, reject) => {
    ws.once('message', () => resolve({ ws, closed })); // engine.io's open packet
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

describe('connections that never sign in (issue 26 #14)', () => {
  it('are closed after the connect timeout, far sooner than Socket.IO’s 45 s', async () => {
    expect(DEFAULT_SOCKET_LIMITS.connectTimeoutMs).toBeLessThanOrEqual(5_000);
    ctx = await createTestApp({}, undefined, { realtime: { limits: { connectTimeoutMs: 400 } } });
    const url = await listen(ctx.app);
    const raw = await openRaw(url);
    const lived = await raw.closed;
    expect(lived).toBeGreaterThanOrEqual(300);
    expect(lived).toBeLessThan(5_000);
  });

  it('are counted per address: past the limit a new one is refused, and a closed one frees its place', async () => {
    ctx = await createTestApp({}, undefined, {
      realtime: { limits: { pendingPerAddress: 3, connectTimeoutMs: 60_000 } },
    });
    const url = await listen(ctx.app);
    const held = [await openRaw(url), await openRaw(url), await openRaw(url)];
    await expect(openRaw(url)).rejects.toThrow(/refused: 4\d\d/);
    held[0]?.ws.close();
    await held[0]?.closed;
    // The server saw the close: the address has a free place again.
    await expect(openRaw(url)).resolves.toBeDefined();
  });

  it('a member who signs in stops counting as pending', async () => {
    ctx = await createTestApp({}, undefined, { realtime: { limits: { pendingPerAddress: 2 } } });
    const url = await listen(ctx.app);
    const { token } = await ctx.signIn();
    const sockets: Socket[] = [];
    cleanup.push(() => {
      for (const s of sockets) s.close();
    });
    for (let i = 0; i < 5; i++) sockets.push(await connectClient(url, token));
    expect(sockets.every((s) => s.connected)).toBe(true);
  });
});

import { REALTIME_EVENTS } from '@guildhall/common';
import type { Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.ts';
import { type ConnectRefused, connectClient, disconnected, listen, subscribe } from './testing.ts';

let ctx: TestContext | undefined;
const open: Socket[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) s.close();
  await ctx?.close();
  ctx = undefined;
});

async function connect(url: string, token: string): Promise<Socket> {
  const socket = await connectClient(url, token);
  open.push(socket);
  return socket;
}

/** Issue 15: one account, one address or one socket cannot flood the realtime channel. */
describe('realtime limits', () => {
  it('the 11th socket of one account drops the oldest, telling it why', async () => {
    ctx = await createTestApp();
    const url = await listen(ctx.app);
    const { token } = await ctx.signIn();
    const sockets: Socket[] = [];
    for (let i = 0; i < 10; i++) sockets.push(await connect(url, token));
    const oldest = sockets[0] as Socket;
    const told = new Promise((resolve) => oldest.once(REALTIME_EVENTS.replaced, resolve));
    const gone = disconnected(oldest);
    await connect(url, token);
    expect(await told).toMatchObject({ message: expect.stringContaining('Too many open connections') });
    expect(await gone).toBe('io server disconnect');
    expect(sockets.slice(1).every((s) => s.connected)).toBe(true);
    expect(ctx.app.realtime.io.of('/').sockets.size).toBe(10);
  });

  it('handshakes are limited per address', async () => {
    ctx = await createTestApp({}, undefined, { realtime: { limits: { handshakesPerWindow: 3 } } });
    const url = await listen(ctx.app);
    const { token } = await ctx.signIn();
    for (let i = 0; i < 3; i++) await connect(url, token);
    const refused = await connectClient(url, token).then(
      () => null,
      (e: ConnectRefused) => e,
    );
    expect(refused).toEqual({
      message: 'Rate limit exceeded. Please try again later.',
      code: 'RATE_LIMITED',
    });
  });

  it('a socket sending too many events is refused, then dropped', async () => {
    ctx = await createTestApp({}, undefined, { realtime: { limits: { eventsPerWindow: 5 } } });
    const url = await listen(ctx.app);
    const { token } = await ctx.signIn();
    const socket = await connect(url, token);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await subscribe(socket, 'nosuch:room'));
    expect(answers.slice(0, 5).every((a) => !a.ok && a.code === 'NOT_FOUND')).toBe(true);
    expect(answers[5]).toEqual({
      ok: false,
      error: 'Rate limit exceeded. Please try again later.',
      code: 'RATE_LIMITED',
    });
    const gone = disconnected(socket);
    for (let i = 0; i < 5; i++) socket.emit(REALTIME_EVENTS.unsubscribe, { room: 'nosuch:room' });
    expect(await gone).toBe('io server disconnect');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.ts';
import { connectClient, disconnected, listen } from './testing.ts';

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

describe('shutting down (issue 16: a rolling restart keeps realtime)', () => {
  it('drops sockets in a way Socket.IO clients recover from on their own', async () => {
    ctx = await createTestApp();
    const { token } = await ctx.signIn();
    const socket = await connectClient(await listen(ctx.app), token, { reconnection: true });
    const gone = disconnected(socket);
    const closing = ctx.app.close();
    // "io server disconnect" would end the client for good; a transport close makes it retry.
    expect(await gone).toBe('transport close');
    expect(socket.active).toBe(true);
    await closing;
    socket.close();
  });
});

import { TICTACTOE_STATE_EVENT, type TicTacToeStatePush, tictactoeRoom } from '@guildhall/common';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteRedisKeys,
  startRedisProxy,
  testPlatform,
  uniqueRedisPrefix,
} from '../../../platform/rate-limit/testing.ts';
import { connectClient, listen, nextEvent, subscribe } from '../../../platform/realtime/testing.ts';
import { createTestApp, type TestContext } from '../../../test/app.ts';
import { eventually } from '../../../test/eventually.ts';
import { join, move } from './test-helpers.ts';

const redisUrl = process.env.TEST_REDIS_URL;

// Two server instances on one database and one Redis, as behind a load balancer (CI sets TEST_REDIS_URL).
describe.skipIf(!redisUrl)('tic-tac-toe across two server instances (Redis fan-out)', () => {
  let one: TestContext;
  let two: TestContext;
  let urlOne: string;
  let urlTwo: string;
  const sockets: Socket[] = [];

  // Keys of their own (rooms, rate limits), so parallel runs on the same Redis never meet.
  const prefix = uniqueRedisPrefix();

  beforeAll(async () => {
    const platform = testPlatform(prefix);
    const env = { REDIS_URL: redisUrl! };
    one = await createTestApp(env, undefined, platform);
    two = await createTestApp(env, undefined, { ...platform, sameDatabaseAs: one });
    urlOne = await listen(one.app);
    urlTwo = await listen(two.app);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await two?.close();
    await one?.close();
    await deleteRedisKeys(redisUrl!, prefix);
  });

  it('a move made through one instance reaches a client connected to the other', async () => {
    const x = await one.signIn();
    const o = await one.signIn();
    const { body } = await join(one.app, x.token);
    const id = body.game!.id;
    await join(two.app, o.token); // matchmaking sees the same games from either instance

    // O watches through instance one; X plays through instance two.
    const os = await connectClient(urlOne, o.token);
    sockets.push(os);
    expect(await subscribe(os, tictactoeRoom(id))).toEqual({ ok: true });
    const pushed = nextEvent<TicTacToeStatePush>(
      os,
      TICTACTOE_STATE_EVENT,
      (p) => p.game.version === 2,
      5000,
    );
    expect((await move(two.app, x.token, id, 4)).status).toBe(200);
    const { game } = await pushed;
    expect(game.board[4]).toBe('X');
    expect(game.currentPlayer).toBe('O');

    // And the other way round.
    const xs = await connectClient(urlTwo, x.token);
    sockets.push(xs);
    await subscribe(xs, tictactoeRoom(id));
    const back = nextEvent<TicTacToeStatePush>(xs, TICTACTOE_STATE_EVENT, (p) => p.game.version === 3, 5000);
    await move(one.app, o.token, id, 0);
    expect((await back).game.board[0]).toBe('O');
  });

  it('disconnecting a user reaches their sockets on every instance', async () => {
    const u = await one.signIn();
    const s = await connectClient(urlTwo, u.token);
    sockets.push(s);
    const gone = new Promise((resolve) => s.once('disconnect', resolve));
    one.app.realtime.disconnectUser(u.userId);
    expect(await gone).toBe('io server disconnect');
  });
});

describe.skipIf(!redisUrl)('tic-tac-toe fan-out after a Redis outage', () => {
  it('resumes by itself once Redis is back: a move through one instance reaches the other again', async () => {
    const proxy = await startRedisProxy(redisUrl!);
    const prefix = uniqueRedisPrefix();
    const platform = testPlatform(prefix);
    const env = { REDIS_URL: proxy.url };
    const one = await createTestApp(env, undefined, platform);
    const two = await createTestApp(env, undefined, { ...platform, sameDatabaseAs: one });
    let os: Socket | undefined;
    try {
      const x = await one.signIn();
      const o = await one.signIn();
      const id = (await join(one.app, x.token)).body.game!.id;
      await join(one.app, o.token);
      os = await connectClient(await listen(two.app), o.token);
      await subscribe(os, tictactoeRoom(id));

      const refused = proxy.nextRefusedConnection();
      proxy.cut();
      await refused; // an instance noticed and is trying to reconnect
      proxy.restore();
      // node-redis reconnects and resubscribes in the background; publish until one crosses again.
      let hasCrossed = false;
      os.on('probe', () => {
        hasCrossed = true;
      });
      await eventually(
        () => {
          one.app.realtime.publish(tictactoeRoom(id), 'probe', {});
          expect(hasCrossed).toBe(true);
        },
        { interval: 100 },
      );

      const pushed = nextEvent<TicTacToeStatePush>(
        os,
        TICTACTOE_STATE_EVENT,
        (p) => p.game.version === 2,
        5000,
      );
      expect((await move(one.app, x.token, id, 4)).status).toBe(200);
      expect((await pushed).game.board[4]).toBe('X');
    } finally {
      os?.close();
      await two.close();
      await one.close();
      await proxy.close();
      await deleteRedisKeys(redisUrl!, prefix);
    }
  });
});

import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { PICTIONARY_EVENTS, REALTIME_EVENTS, type SessionEnded, TEXTS, userRoom } from '@guildhall/common';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.ts';
import { eventually } from '../../test/eventually.ts';
import { deadline } from '../../test/time-scale.ts';
import { sha256Hex } from '../crypto.ts';
import { fail } from '../errors.ts';
import { deleteRedisKeys, testPlatform, uniqueRedisPrefix } from '../rate-limit/testing.ts';
import { createSession, revokeSession, revokeUserSessions } from '../sessions.ts';
import { createRealtimeHub, type RoomEmission } from './hub.ts';
import {
  afterSentinel,
  connectClient,
  disconnected,
  listen,
  nextEvent,
  record,
  roundTrip,
  subscribe,
} from './testing.ts';

let ctx: TestContext;
let url: string;
const sockets: Socket[] = [];

/** A room type for these tests: `probe:<key>`, open to the user whose id is the key or `open`. */
function defineProbeRooms() {
  ctx.app.realtime.defineRoomType('probe', {
    async authorize(identity, key) {
      if (key !== 'open' && key !== identity.userId) throw fail('FORBIDDEN', 'Not your probe');
    },
    async snapshot(key, identity) {
      // The probe's own event, outside FEATURE_EVENTS: this suite tests the hub, not a feature's push.
      return {
        event: 'probe:state',
        payload: { key, for: identity.userId, full: true },
      } as unknown as RoomEmission;
    },
  });
}

async function connect(token: string | undefined): Promise<Socket> {
  const socket = await connectClient(url, token);
  sockets.push(socket);
  return socket;
}

beforeEach(async () => {
  ctx = await createTestApp({}, undefined, { features: ['auth', 'users', 'admin'] });
  defineProbeRooms();
  url = await listen(ctx.app);
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  await ctx.close();
});

describe('realtime handshake', () => {
  it('refuses a connection without a session token', async () => {
    await expect(connect(undefined)).rejects.toEqual({ message: TEXTS.authRequired, code: 'AUTH_REQUIRED' });
  });

  it('refuses an unknown token and a revoked session', async () => {
    await expect(connect('not-a-session')).rejects.toEqual({
      message: TEXTS.sessionInvalid,
      code: 'AUTH_REQUIRED',
    });
    const { token } = await ctx.signIn();
    await revokeSession(ctx.db, sha256Hex(token));
    await expect(connect(token)).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
  });

  it('refuses an unapproved user', async () => {
    const { token } = await ctx.signIn({ is_approved: 0 });
    await expect(connect(token)).rejects.toEqual({ message: TEXTS.notApproved, code: 'NOT_APPROVED' });
  });

  it('admits an approved user of any level, identified by account: their user room reaches every tab', async () => {
    const { token, userId } = await ctx.signIn({ access_level: 'viewer' });
    const [tab1, tab2] = [await connect(token), await connect(token)];
    const otherUser = await ctx.signIn();
    const other = await connect(otherUser.token);
    const otherSeen = record(other, 'hello');
    const got = Promise.all([nextEvent(tab1, 'hello'), nextEvent(tab2, 'hello')]);
    ctx.app.realtime.publish(userRoom(userId), 'hello', { n: 1 });
    expect(await got).toEqual([{ n: 1 }, { n: 1 }]);
    await afterSentinel(ctx.app.realtime, other, otherUser.userId);
    expect(otherSeen).toEqual([]);
  });
});

describe('realtime sessions that end', () => {
  it('a re-check drops sockets of a revoked session, telling the client why', async () => {
    const { token } = await ctx.signIn();
    const keeper = await ctx.signIn();
    const socket = await connect(token);
    const kept = await connect(keeper.token);
    const ended = nextEvent<SessionEnded>(socket, REALTIME_EVENTS.sessionEnded);
    const gone = disconnected(socket);

    await revokeSession(ctx.db, sha256Hex(token));
    expect(await ctx.app.realtime.recheckSessions()).toBe(1);
    expect(await ended).toEqual({ code: 'AUTH_REQUIRED', message: TEXTS.sessionInvalid });
    expect(await gone).toBe('io server disconnect');
    expect(kept.connected).toBe(true);
  });

  it('a re-check drops a user who is no longer approved', async () => {
    const { token, userId } = await ctx.signIn();
    const socket = await connect(token);
    const ended = nextEvent<SessionEnded>(socket, REALTIME_EVENTS.sessionEnded);
    await ctx.db.updateTable('users').set({ is_approved: 0 }).where('discord_id', '=', userId).execute();
    await ctx.app.realtime.recheckSessions();
    expect((await ended).code).toBe('NOT_APPROVED');
    await disconnected(socket);
  });

  it('the re-check runs by itself on its interval', async () => {
    const server = http.createServer();
    const hub = createRealtimeHub({
      httpServer: server,
      db: ctx.db,
      levelOf: async (user) => user.access_level,
      log: ctx.app.log,
      recheckIntervalMs: 100,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const kept = await ctx.signIn();
      const dropped = await ctx.signIn();
      const keptSocket = await connectClient(`http://127.0.0.1:${port}`, kept.token);
      const droppedSocket = await connectClient(`http://127.0.0.1:${port}`, dropped.token);
      sockets.push(keptSocket, droppedSocket);
      const gone = disconnected(droppedSocket, 2000);
      await revokeUserSessions(ctx.db, dropped.userId);
      // Nobody called recheckSessions(): the interval did, and dropped the revoked session…
      expect(await gone).toBe('io server disconnect');
      // …and only that one: a push to the live session still arrives after that pass.
      await afterSentinel(hub, keptSocket, kept.userId);
      expect(keptSocket.connected).toBe(true);
    } finally {
      await hub.close();
      server.close();
    }
  });

  it('subscribing re-checks the session on the spot, before any periodic check', async () => {
    const { token, userId } = await ctx.signIn();
    const socket = await connect(token);
    await revokeSession(ctx.db, sha256Hex(token));
    const gone = disconnected(socket);
    expect(await subscribe(socket, `probe:${userId}`)).toEqual({
      ok: false,
      error: TEXTS.sessionInvalid,
      code: 'AUTH_REQUIRED',
    });
    await gone;
  });

  it('disconnectUser drops every socket of that user', async () => {
    const { token, userId } = await ctx.signIn();
    const [a, b] = [await connect(token), await connect(token)];
    const gone = Promise.all([disconnected(a), disconnected(b)]);
    ctx.app.realtime.disconnectUser(userId);
    expect(await gone).toEqual(['io server disconnect', 'io server disconnect']);
  });

  it('accessChanged tells every socket of that user ACCESS_CHANGED and closes it; the session still connects', async () => {
    const { token, userId } = await ctx.signIn();
    const [a, b] = [await connect(token), await connect(token)];
    const told = Promise.all([a, b].map((s) => nextEvent<SessionEnded>(s, REALTIME_EVENTS.sessionEnded)));
    const gone = Promise.all([disconnected(a), disconnected(b)]);
    ctx.app.realtime.accessChanged(userId);
    expect((await told).map((e) => e.code)).toEqual(['ACCESS_CHANGED', 'ACCESS_CHANGED']);
    expect(await gone).toEqual(['io server disconnect', 'io server disconnect']);
    const again = await connect(token); // not a sign-out: the same token connects again
    expect(again.connected).toBe(true);
  });
});

describe('sign-out and admin changes end sockets at once', () => {
  it('logout closes the sockets of that session and keeps the user’s other sessions', async () => {
    const { token, userId } = await ctx.signIn();
    const second = await createSession(ctx.db, userId);
    const [mine, elsewhere] = [await connect(token), await connect(second)];
    const gone = disconnected(mine);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(await gone).toBe('io server disconnect');
    expect(elsewhere.connected).toBe(true);
  });

  it('removing a user through the admin API closes their sockets', async () => {
    const admin = await ctx.signIn({ access_level: 'admin' });
    const { token, userId } = await ctx.signIn();
    const socket = await connect(token);
    const gone = disconnected(socket);
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/users/${userId}`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(await gone).toBe('io server disconnect');
  });
});

describe('realtime rooms', () => {
  it('subscribing sends the full current state at once, then every publish to the room', async () => {
    const { token, userId } = await ctx.signIn();
    const socket = await connect(token);
    const states = record(socket, 'probe:state');
    expect(await subscribe(socket, `probe:${userId}`)).toEqual({ ok: true });
    expect(states).toEqual([{ key: userId, for: userId, full: true }]); // arrived before the ack

    const next = nextEvent(socket, 'probe:state', (p: { n?: number }) => p.n === 2);
    ctx.app.realtime.publish(`probe:${userId}`, 'probe:state', { n: 2 });
    expect(await next).toEqual({ n: 2 });
  });

  it('refuses a room the feature does not admit, and delivers nothing from it', async () => {
    const { token, userId } = await ctx.signIn();
    const socket = await connect(token);
    const seen = record(socket, 'probe:state');
    expect(await subscribe(socket, 'probe:someone-else')).toEqual({
      ok: false,
      error: 'Not your probe',
      code: 'FORBIDDEN',
    });
    ctx.app.realtime.publish('probe:someone-else', 'probe:state', { leaked: true });
    await afterSentinel(ctx.app.realtime, socket, userId);
    expect(seen).toEqual([]);
  });

  it('refuses malformed rooms, unknown room types and other users’ rooms', async () => {
    const { token } = await ctx.signIn();
    const other = await ctx.signIn();
    const socket = await connect(token);
    for (const room of ['', 'no-colon', 'probe:', 'Probe:x', 'probe:a b', `probe:${'x'.repeat(101)}`]) {
      expect(await subscribe(socket, room)).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    }
    expect(await socket.timeout(3000).emitWithAck(REALTIME_EVENTS.subscribe, 42)).toMatchObject({
      ok: false,
      code: 'BAD_REQUEST',
    });
    expect(await subscribe(socket, 'nosuch:1')).toEqual({
      ok: false,
      error: 'Unknown room type: nosuch',
      code: 'NOT_FOUND',
    });
    expect(await subscribe(socket, userRoom(other.userId))).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });

  it('unsubscribing stops the pushes of that room', async () => {
    const { token, userId } = await ctx.signIn();
    const socket = await connect(token);
    await subscribe(socket, 'probe:open');
    const seen = record<{ n: number }>(socket, 'probe:state');
    socket.emit(REALTIME_EVENTS.unsubscribe, { room: 'probe:open' });
    await roundTrip(socket); // the unsubscribe has been handled
    ctx.app.realtime.publish('probe:open', 'probe:state', { n: 1 });
    await afterSentinel(ctx.app.realtime, socket, userId);
    expect(seen).toEqual([]);
  });

  it('limits subscribe bursts per connection', async () => {
    const { token } = await ctx.signIn();
    const socket = await connect(token);
    const acks = await Promise.all(Array.from({ length: 25 }, () => subscribe(socket, 'probe:open')));
    expect(acks.filter((a) => a.ok)).toHaveLength(20);
    expect(acks.filter((a) => !a.ok && a.code === 'RATE_LIMITED')).toHaveLength(5);
  });
});

describe('who is in a room', () => {
  it('membersOf names each user subscribed to the room once, whatever their tabs, and nobody else', async () => {
    const a = await ctx.signIn();
    const b = await ctx.signIn();
    const elsewhere = await ctx.signIn();
    const [a1, a2, b1] = [await connect(a.token), await connect(a.token), await connect(b.token)];
    await connect(elsewhere.token); // connected, in no probe room
    for (const s of [a1, a2, b1]) expect(await subscribe(s, 'probe:open')).toEqual({ ok: true });
    expect(await ctx.app.realtime.membersOf(`probe:${elsewhere.userId}`)).toEqual([]);
    expect(new Set(await ctx.app.realtime.membersOf('probe:open'))).toEqual(new Set([a.userId, b.userId]));
    expect(await ctx.app.realtime.membersOf('probe:open')).toHaveLength(2);

    // One of a's two tabs leaves: a is still there; both gone, a is not.
    a1.emit(REALTIME_EVENTS.unsubscribe, { room: 'probe:open' });
    await roundTrip(a1);
    expect(new Set(await ctx.app.realtime.membersOf('probe:open'))).toEqual(new Set([a.userId, b.userId]));
    const gone = disconnected(a2);
    a2.disconnect();
    await gone;
    await eventually(async () => expect(await ctx.app.realtime.membersOf('probe:open')).toEqual([b.userId]));
  });

  it('localMembersByKey lists the rooms of one type on this instance by key, with their users', async () => {
    const a = await ctx.signIn();
    const b = await ctx.signIn();
    const [as, bs] = [await connect(a.token), await connect(b.token)];
    await subscribe(as, 'probe:open');
    await subscribe(as, `probe:${a.userId}`);
    await subscribe(bs, 'probe:open');
    const byKey = ctx.app.realtime.localMembersByKey('probe');
    expect([...byKey.keys()].sort()).toEqual(['open', a.userId].sort());
    expect(new Set(byKey.get('open'))).toEqual(new Set([a.userId, b.userId]));
    expect(byKey.get(a.userId)).toEqual([a.userId]);
    // A type is matched whole: `prob` is not a prefix of `probe`'s rooms.
    expect(ctx.app.realtime.localMembersByKey('prob')).toEqual(new Map());
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('who is in a room, across instances (Redis fan-out)', () => {
  const redisUrl = process.env.TEST_REDIS_URL ?? '';
  const prefix = uniqueRedisPrefix();
  const apps = {} as { one: TestContext; two: TestContext };
  beforeAll(async () => {
    const options = { ...testPlatform(prefix), features: ['auth', 'users', 'admin'] };
    apps.one = await createTestApp({ REDIS_URL: redisUrl }, undefined, options);
    apps.two = await createTestApp({ REDIS_URL: redisUrl }, undefined, options);
  });
  afterAll(async () => {
    await apps.two?.close();
    await apps.one?.close();
    await deleteRedisKeys(redisUrl, prefix);
  });

  it('membersOf on one instance names users whose sockets are on the other; localMembersByKey does not', async () => {
    for (const { app } of [apps.one, apps.two]) {
      app.realtime.defineRoomType('probe', {
        async authorize() {},
        async snapshot() {
          return null;
        },
      });
    }
    const here = await apps.one.signIn();
    const there = await apps.two.signIn();
    const onOne = await connectClient(await listen(apps.one.app), here.token);
    const onTwo = await connectClient(await listen(apps.two.app), there.token);
    sockets.push(onOne, onTwo);
    await subscribe(onOne, 'probe:shared');
    await subscribe(onTwo, 'probe:shared');
    for (const { app } of [apps.one, apps.two]) {
      expect(new Set(await app.realtime.membersOf('probe:shared'))).toEqual(
        new Set([here.userId, there.userId]),
      );
    }
    expect(apps.one.app.realtime.localMembersByKey('probe').get('shared')).toEqual([here.userId]);
    expect(apps.two.app.realtime.localMembersByKey('probe').get('shared')).toEqual([there.userId]);
  });
});

describe('realtime shutdown', () => {
  it('closing the app drops open sockets instead of hanging', async () => {
    const { token } = await ctx.signIn();
    const socket = await connect(token);
    const gone = disconnected(socket);
    const started = Date.now();
    await ctx.app.close();
    expect(Date.now() - started).toBeLessThan(deadline(2000));
    await gone;
  });
});

describe('client events', () => {
  it("validates the payload once (CLIENT_EVENTS), runs the handler as the socket's account and acks its result or its HttpError", async () => {
    const handled: unknown[] = [];
    ctx.app.realtime.onClientEvent(PICTIONARY_EVENTS.draw, async (identity, payload) => {
      handled.push(payload);
      if (payload.strokeData.type === 'undo') throw fail('CONFLICT', 'Not now');
      if (payload.strokeData.type === 'fill') throw new Error('boom');
      return { turnNumber: 1, message: identity.userId };
    });
    expect(() =>
      ctx.app.realtime.onClientEvent(PICTIONARY_EVENTS.draw, async () => ({ turnNumber: 0, message: '' })),
    ).toThrow();
    const member = await ctx.signIn();
    const socket = await connect(member.token);
    const act = (payload: unknown) => socket.timeout(3000).emitWithAck(PICTIONARY_EVENTS.draw, payload);
    const gameId = randomUUID();
    const batch = (strokeData: object) => ({ gameId, strokeData: { timestamp: 1, ...strokeData } });
    expect(await act(batch({ type: 'clear' }))).toEqual({ ok: true, turnNumber: 1, message: member.userId });
    expect(await act(batch({ type: 'undo' }))).toEqual({ ok: false, error: 'Not now', code: 'CONFLICT' });
    expect(await act(batch({ type: 'fill', x: 1, y: 1, color: '#000000', strokeId: 1 }))).toEqual({
      ok: false,
      error: 'Internal server error',
      code: 'INTERNAL',
    });
    expect(handled).toEqual([batch({ type: 'clear' }), batch({ type: 'undo' }), expect.anything()]);

    // A payload its schema refuses never reaches the handler; the ack names the field.
    expect(await act({ ...batch({ type: 'clear' }), gameId: 'not-a-uuid' })).toEqual({
      ok: false,
      error: 'Game id must be a UUID',
      code: 'BAD_REQUEST',
    });
    expect(await act(5)).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(handled).toHaveLength(3);
  });
});

import type { Server as HttpServer, IncomingMessage } from 'node:http';
import {
  CLIENT_EVENTS,
  type ClientEventName,
  type ClientEventPayload,
  type ClientEventResult,
  REALTIME_EVENTS,
  REALTIME_PATH,
  type RealtimeEventName,
  type RealtimeEventPayload,
  type SessionEnded,
  type SubscribeAck,
  TEXTS,
  userRoom,
} from '@guildhall/common';
import type { FastifyBaseLogger } from 'fastify';
import { type DefaultEventsMap, Server, type ServerOptions, type Socket } from 'socket.io';
import type { Db } from '../../db/index.ts';
import type { LevelOf } from '../access.ts';
import { clientAddressKey } from '../client-address.ts';
import { sha256Hex } from '../crypto.ts';
import { fail, HttpError } from '../errors.ts';
import {
  findLiveSessionUsers,
  type SessionVerdict,
  type SocketIdentity,
  verdictFor,
} from './session-check.ts';
import {
  createPendingCounter,
  createSocketGate,
  DEFAULT_SOCKET_LIMITS,
  type SocketLimits,
} from './socket-limits.ts';

/**
 * What a room sends a socket that joined: one of the pushes of FEATURE_EVENTS (common/) with its payload
 * typed by that event's schema, as `publish` sends, so the web's useRealtimeRoom gets the same shape.
 */
export type RoomEmission = {
  [E in RealtimeEventName]: { event: E; payload: RealtimeEventPayload<E> };
}[RealtimeEventName];

/** How a feature lets a socket into its rooms `<type>:<key>`. */
export type RoomType = {
  /** Throws an HttpError (its message and code go back to the client) when the user may not join. */
  authorize(identity: SocketIdentity, key: string): Promise<void>;
  /** The room's full current state, emitted to a socket right after it joined (and so after a reconnect). */
  snapshot(key: string, identity: SocketIdentity): Promise<RoomEmission | null>;
};

/** A feature's handler of client event `E`: the payload arrives validated against CLIENT_EVENTS (common/). */
export type ClientEventHandler<E extends ClientEventName> = (
  identity: SocketIdentity,
  payload: ClientEventPayload<E>,
) => Promise<ClientEventResult<E>>;

type AnyClientEventHandler = (identity: SocketIdentity, payload: unknown) => Promise<object>;

export type RealtimeHub = {
  /** The Socket.IO server: the platform's own (metrics, tests); features get the hub without it. */
  readonly io: Server;
  /**
   * Sends an event to every socket in a room, on every instance. Features call it after a state change.
   * `except` leaves out the sockets of another room (a drawer's own `user:<id>` room for their strokes).
   */
  publish(room: string, event: string, payload: unknown, options?: { except?: string }): void;
  /** Registers the rooms of one feature, e.g. `tictactoe` for rooms `tictactoe:<gameId>`. */
  defineRoomType(type: string, room: RoomType): void;
  /**
   * Handles a client → server event of one feature (e.g. `pictionary:draw`), declared with its payload and
   * result schemas in CLIENT_EVENTS (common/), on every socket, as the account the socket acts for. The
   * payload is validated here, once: a wrong one is acked `{ok: false, error, code: 'BAD_REQUEST'}` naming
   * the field, without calling the handler. The client's ack gets `{ok: true, ...result}`, or
   * `{ok: false, error, code}` for an HttpError the handler throws (anything else is logged and answered
   * as an internal error).
   */
  onClientEvent<E extends ClientEventName>(event: E, handler: ClientEventHandler<E>): void;
  /** This instance's sockets and rooms with a socket (the metrics' gauges). */
  counts(): { sockets: number; rooms: number };
  /**
   * Who is in a room: the ids of the users with a socket subscribed to `room`, each once, on every
   * instance (Socket.IO's fetchSockets, which asks the other instances through the Redis adapter).
   */
  membersOf(room: string): Promise<string[]>;
  /**
   * The rooms `<type>:<key>` with a socket on THIS instance, by key, and the ids of their users: no round
   * trip to other instances. For a presence beat, where each instance notes its own sockets: an open tab
   * keeps its socket (Socket.IO's heartbeat, which browsers do not throttle in a background tab as they
   * throttle timers), a closed one drops it.
   */
  localMembersByKey(type: string): Map<string, string[]>;
  /** Re-checks every local socket's session now; drops revoked, expired and unapproved ones. Returns how many. */
  recheckSessions(): Promise<number>;
  /** Drops every socket of a user on every instance (e.g. after an admin removed them). */
  disconnectUser(userId: string, ended?: SessionEnded): void;
  /**
   * The user's level changed while their session stays good (up or down): every socket of theirs, on every
   * instance, gets `session:ended` `ACCESS_CHANGED` and is closed at once, so no room keeps a socket
   * authorized at the old level; the client reads its account again and reconnects at the new one.
   */
  accessChanged(userId: string): void;
  close(): Promise<void>;
};

export type HubOptions = {
  httpServer: HttpServer;
  /** The client's address for a handshake (X-Forwarded-For trusted as TRUST_PROXY says). */
  clientAddress?: (req: IncomingMessage) => string;
  limits?: Partial<SocketLimits>;
  db: Db;
  levelOf: LevelOf;
  log: FastifyBaseLogger;
  recheckIntervalMs: number;
  adapter?: ServerOptions['adapter'];
};

type SocketData = { identity: SocketIdentity; subscribeTimes: number[] };
type HubSocket = Socket<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>;

const ROOM_PATTERN = /^([a-z][a-z0-9-]{0,31}):([\w-]{1,100})$/;
const MAX_ROOMS_PER_SOCKET = 32;
const SUBSCRIBE_BURST = 20;
const SUBSCRIBE_WINDOW_MS = 10_000;
const MAX_TOKEN_LENGTH = 512;

/**
 * The realtime channel: Socket.IO on the portal's HTTP server. The handshake carries the session token;
 * sockets act for a portal account (never a socket id), and every socket joins `user:<id>`.
 */
export function createRealtimeHub(opts: HubOptions): RealtimeHub {
  const { db, levelOf, log } = opts;
  const rooms = new Map<string, RoomType>();
  const clientEvents = new Map<string, AnyClientEventHandler>();
  const limits = { ...DEFAULT_SOCKET_LIMITS, ...opts.limits };
  const addressOf = opts.clientAddress ?? ((req: IncomingMessage) => req.socket.remoteAddress ?? 'unknown');
  const pending = createPendingCounter(limits.pendingPerAddress);
  const io = new Server(opts.httpServer, {
    path: REALTIME_PATH,
    serveClient: false,
    maxHttpBufferSize: 1_000_000,
    // A connection that has not completed the handshake (sent its session token) in this time is closed;
    // Socket.IO's default, 45 s, let strangers hold hundreds of idle sockets (issue 26 #14).
    connectTimeout: limits.connectTimeoutMs,
    // New engine.io sessions only: an address already holding its share of unauthenticated ones is refused.
    allowRequest: (req, callback) => {
      const full = pending.isFull(clientAddressKey(addressOf(req)));
      callback(full ? 'Too many connections that have not signed in' : null, !full);
    },
    ...(opts.adapter ? { adapter: opts.adapter } : {}),
  });
  // Each engine.io connection counts as pending for its address until it signs in or closes.
  const pendingRelease = new WeakMap<object, () => void>();
  io.engine.on(
    'connection',
    (conn: { request: IncomingMessage; once: (e: 'close', f: () => void) => void; close: () => void }) => {
      const key = clientAddressKey(addressOf(conn.request));
      // Two handshakes racing past allowRequest: the later one is closed here.
      if (!pending.tryOpen(key)) return conn.close();
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        pending.release(key);
      };
      pendingRelease.set(conn, release);
      conn.once('close', () => {
        release();
        pendingRelease.delete(conn);
      });
    },
  );

  const checkToken = async (tokenHash: string): Promise<SessionVerdict> => {
    const live = await findLiveSessionUsers(db, [tokenHash]);
    return verdictFor(levelOf, tokenHash, live.get(tokenHash));
  };

  const gate = createSocketGate(limits);

  io.use((socket, next) => {
    const address = clientAddressKey(addressOf(socket.request));
    gate.allowHandshake(address).then((allowed) => {
      if (allowed) next();
      else next(refusal('RATE_LIMITED', TEXTS.rateLimitGeneric));
    }, next);
  });

  io.use((socket, next) => {
    const token = handshakeToken(socket.handshake.auth, socket.handshake.headers.authorization);
    if (!token) return next(refusal('AUTH_REQUIRED', TEXTS.authRequired));
    checkToken(sha256Hex(token)).then(
      (verdict) => {
        if (!verdict.ok) return next(refusal(verdict.code, verdict.message));
        (socket as HubSocket).data.identity = verdict.identity;
        (socket as HubSocket).data.subscribeTimes = [];
        next();
      },
      (err: unknown) => {
        log.error({ err }, 'realtime handshake failed');
        next(refusal('INTERNAL', 'Internal server error'));
      },
    );
  });

  io.on('connection', (raw) => {
    const socket = raw as HubSocket;
    // Signed in: no longer pending.
    pendingRelease.get(socket.conn)?.();
    void Promise.resolve(socket.join(userRoom(socket.data.identity.userId)))
      .then(() => dropOldestBeyondLimit(socket))
      .catch((err: unknown) => log.warn({ err }, 'realtime: could not enforce the per-account socket limit'));
    // Every event counts against the socket's budget: over it, refused (with an ack when one is asked
    // for); far over it, the socket is dropped.
    socket.use((packet, next) => {
      void gate.judgeEvent(socket.id).then((verdict) => {
        if (verdict === 'ok') return next();
        const ack = packet.at(-1);
        if (typeof ack === 'function')
          ack({ ok: false, error: TEXTS.rateLimitGeneric, code: 'RATE_LIMITED' });
        if (verdict === 'drop') {
          log.warn({ user: socket.data.identity.userId }, 'realtime: dropped a socket flooding events');
          socket.disconnect(true);
        }
      });
    });
    socket.on('disconnect', () => gate.forget(socket.id));
    socket.on(REALTIME_EVENTS.subscribe, (request: unknown, ack: unknown) => {
      const reply = typeof ack === 'function' ? (ack as (a: SubscribeAck) => void) : () => {};
      subscribe(socket, request).then(
        (answer) => {
          reply(answer);
          // The session ended since the handshake: answer first, then drop the socket.
          if (!answer.ok && (answer.code === 'AUTH_REQUIRED' || answer.code === 'NOT_APPROVED')) {
            endSession(socket, { code: answer.code, message: answer.error });
          }
        },
        (err: unknown) => {
          log.error({ err }, 'realtime subscribe failed');
          reply({ ok: false, error: 'Internal server error', code: 'INTERNAL' });
        },
      );
    });
    for (const [event, handler] of clientEvents) {
      socket.on(event, (payload: unknown, ack: unknown) => {
        const reply = typeof ack === 'function' ? (ack as (a: unknown) => void) : () => {};
        handler(socket.data.identity, payload).then(
          (result) => reply({ ok: true, ...result }),
          (err: unknown) => {
            if (err instanceof HttpError) return reply({ ok: false, error: err.message, code: err.code });
            log.error({ err, event }, 'realtime client event failed');
            reply({ ok: false, error: 'Internal server error', code: 'INTERNAL' });
          },
        );
      });
    }
    socket.on(REALTIME_EVENTS.unsubscribe, (request: unknown) => {
      const room = roomOf(request);
      if (room && !room.name.startsWith('user:')) void socket.leave(room.name);
    });
  });

  /** One account holds at most `maxSocketsPerUser` sockets, on every instance: the oldest go first. */
  async function dropOldestBeyondLimit(socket: HubSocket): Promise<void> {
    const mine = await io.in(userRoom(socket.data.identity.userId)).fetchSockets();
    const excess = mine.length - limits.maxSocketsPerUser;
    if (excess <= 0) return;
    const oldestFirst = mine.sort((a, b) => a.handshake.issued - b.handshake.issued);
    for (const old of oldestFirst.slice(0, excess)) {
      if (old.id === socket.id) continue;
      old.emit(REALTIME_EVENTS.replaced, { message: TEXTS.realtimeReplaced });
      old.disconnect(true);
    }
  }

  async function subscribe(socket: HubSocket, request: unknown): Promise<SubscribeAck> {
    const room = roomOf(request);
    if (!room) return { ok: false, error: 'room must look like "<type>:<id>"', code: 'BAD_REQUEST' };
    if (!allowSubscribe(socket)) return { ok: false, error: TEXTS.rateLimitGeneric, code: 'RATE_LIMITED' };
    const type = rooms.get(room.type);
    if (!type) return { ok: false, error: `Unknown room type: ${room.type}`, code: 'NOT_FOUND' };
    if (socket.rooms.size >= MAX_ROOMS_PER_SOCKET && !socket.rooms.has(room.name)) {
      return { ok: false, error: 'Too many rooms on one connection', code: 'TOO_MANY_ROOMS' };
    }
    // Re-check on demand: the session may have ended since the handshake.
    const verdict = await checkToken(socket.data.identity.tokenHash);
    if (!verdict.ok) return { ok: false, error: verdict.message, code: verdict.code };
    socket.data.identity = verdict.identity;
    try {
      await type.authorize(verdict.identity, room.key);
    } catch (e) {
      if (e instanceof HttpError) return { ok: false, error: e.message, code: e.code ?? 'FORBIDDEN' };
      throw e;
    }
    if (socket.disconnected) return { ok: false, error: 'Disconnected', code: 'DISCONNECTED' };
    // Join first, then read: a change published in between arrives as well, never goes missing.
    await socket.join(room.name);
    const snapshot = await type.snapshot(room.key, verdict.identity);
    if (snapshot) socket.emit(snapshot.event, snapshot.payload);
    return { ok: true };
  }

  function allowSubscribe(socket: HubSocket): boolean {
    const now = Date.now();
    const recent = socket.data.subscribeTimes.filter((t) => now - t < SUBSCRIBE_WINDOW_MS);
    if (recent.length >= SUBSCRIBE_BURST) return false;
    recent.push(now);
    socket.data.subscribeTimes = recent;
    return true;
  }

  function endSession(socket: HubSocket, ended: SessionEnded): void {
    socket.emit(REALTIME_EVENTS.sessionEnded, ended);
    socket.disconnect(true);
  }

  let rechecking: Promise<number> | null = null;
  async function recheckSessions(): Promise<number> {
    const sockets = [...io.of('/').sockets.values()] as HubSocket[];
    const hashes = [...new Set(sockets.map((s) => s.data.identity?.tokenHash).filter(Boolean))];
    if (hashes.length === 0) return 0;
    const live = await findLiveSessionUsers(db, hashes);
    const verdicts = new Map<string, SessionVerdict>();
    for (const hash of hashes) verdicts.set(hash, await verdictFor(levelOf, hash, live.get(hash)));
    let dropped = 0;
    for (const socket of sockets) {
      const verdict = verdicts.get(socket.data.identity?.tokenHash);
      if (!verdict || socket.disconnected) continue;
      if (verdict.ok) {
        socket.data.identity = verdict.identity;
      } else {
        endSession(socket, { code: verdict.code, message: verdict.message });
        dropped += 1;
      }
    }
    if (dropped > 0) log.info({ dropped }, 'realtime: dropped sockets whose session ended');
    return dropped;
  }

  const timer = setInterval(() => {
    if (rechecking) return;
    rechecking = recheckSessions()
      .catch((err: unknown) => {
        log.error({ err }, 'realtime session re-check failed');
        return 0;
      })
      .finally(() => {
        rechecking = null;
      });
  }, opts.recheckIntervalMs);
  timer.unref();

  return {
    io,
    counts: () => ({ sockets: io.engine.clientsCount, rooms: io.of('/').adapter.rooms.size }),
    publish(room, event, payload, options = {}) {
      if (options.except) io.to(room).except(options.except).emit(event, payload);
      else io.to(room).emit(event, payload);
    },
    defineRoomType(type, room) {
      if (!/^[a-z][a-z0-9-]{0,31}$/.test(type) || type === 'user')
        throw new Error(`Invalid room type ${type}`);
      if (rooms.has(type)) throw new Error(`Room type ${type} is already defined`);
      rooms.set(type, room);
    },
    onClientEvent(event, handler) {
      if (!/^[a-z][a-z0-9-]{0,31}:[a-z][a-z0-9-]{0,31}$/.test(event))
        throw new Error(`Invalid client event ${event}`);
      if (clientEvents.has(event)) throw new Error(`Client event ${event} is already handled`);
      const schema = CLIENT_EVENTS[event].payload;
      clientEvents.set(event, async (identity, payload) => {
        const parsed = schema.safeParse(payload);
        if (!parsed.success) {
          throw fail('BAD_REQUEST', parsed.error.issues[0]?.message ?? `Invalid ${event} payload`);
        }
        return handler(identity, parsed.data as ClientEventPayload<typeof event>);
      });
    },
    async membersOf(room) {
      const sockets = await io.in(room).fetchSockets();
      return usersOf(sockets.map((s) => s.data as Partial<SocketData>));
    },
    localMembersByKey(type) {
      const prefix = `${type}:`;
      const nsp = io.of('/');
      const byKey = new Map<string, string[]>();
      for (const [room, socketIds] of nsp.adapter.rooms) {
        if (!room.startsWith(prefix)) continue;
        const users = usersOf(
          [...socketIds].map((id) => (nsp.sockets.get(id) as HubSocket | undefined)?.data),
        );
        if (users.length > 0) byKey.set(room.slice(prefix.length), users);
      }
      return byKey;
    },
    recheckSessions: () => rechecking ?? recheckSessions(),
    disconnectUser(userId, ended = { code: 'AUTH_REQUIRED', message: TEXTS.sessionInvalid }) {
      io.in(userRoom(userId)).emit(REALTIME_EVENTS.sessionEnded, ended);
      io.in(userRoom(userId)).disconnectSockets(true);
    },
    accessChanged(userId) {
      io.in(userRoom(userId)).emit(REALTIME_EVENTS.sessionEnded, {
        code: 'ACCESS_CHANGED',
        message: TEXTS.accessChanged,
      } satisfies SessionEnded);
      io.in(userRoom(userId)).disconnectSockets(true);
    },
    async close() {
      clearInterval(timer);
      // Close the transports rather than disconnecting the sockets: clients see "transport close" and
      // reconnect by themselves (to another instance during a rolling restart) and resubscribe, whereas
      // a server-side disconnect ("io server disconnect") is final for a Socket.IO client.
      io.engine.close();
      await io.of('/').adapter.close();
    },
  };
}

/** The distinct accounts of some sockets (a socket still in its handshake has no identity yet). */
function usersOf(data: (Partial<SocketData> | undefined)[]): string[] {
  return [...new Set(data.flatMap((d) => (d?.identity ? [d.identity.userId] : [])))];
}

function handshakeToken(auth: Record<string, unknown>, header: string | undefined): string | null {
  const fromAuth = typeof auth?.token === 'string' ? auth.token : null;
  const fromHeader = header ? (/^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? null) : null;
  const token = fromAuth ?? fromHeader;
  return token && token.length <= MAX_TOKEN_LENGTH ? token : null;
}

function roomOf(request: unknown): { name: string; type: string; key: string } | null {
  const name = (request as { room?: unknown } | null)?.room;
  if (typeof name !== 'string') return null;
  const m = ROOM_PATTERN.exec(name);
  return m ? { name, type: m[1]!, key: m[2]! } : null;
}

/** A refused handshake: the client's connect_error carries the message and `data.code`. */
function refusal(code: string, message: string): Error & { data: { code: string } } {
  return Object.assign(new Error(message), { data: { code } });
}

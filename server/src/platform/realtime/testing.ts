import type { AddressInfo } from 'node:net';
import { REALTIME_EVENTS, REALTIME_PATH, type SubscribeAck, userRoom } from '@guildhall/common';
import type { FastifyInstance } from 'fastify';
import { io, type Socket } from 'socket.io-client';

/** Test helpers for the realtime channel: a listening app and socket.io clients. */

/** Starts the app on a loopback port and returns its base URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

export type ConnectRefused = { message: string; code?: string };

/** A connected client for a session token; rejects with the server's refusal when the handshake fails. */
export function connectClient(
  baseUrl: string,
  token: string | undefined,
  opts: { reconnection?: boolean } = {},
): Promise<Socket> {
  const socket = io(baseUrl, {
    path: REALTIME_PATH,
    auth: token === undefined ? {} : { token },
    transports: ['websocket'],
    reconnection: opts.reconnection ?? false,
    forceNew: true,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err: Error & { data?: { code?: string } }) => {
      socket.close();
      reject({ message: err.message, code: err.data?.code } satisfies ConnectRefused);
    });
  });
}

/** Resolves with the next payload of `event` that matches, or rejects after `ms`. */
export function nextEvent<T = unknown>(
  socket: Socket,
  event: string,
  matches: (payload: T) => boolean = () => true,
  ms = 3000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, onEvent);
      reject(new Error(`no ${event} within ${ms} ms`));
    }, ms);
    const onEvent = (payload: T) => {
      if (!matches(payload)) return;
      clearTimeout(timer);
      socket.off(event, onEvent);
      resolve(payload);
    };
    socket.on(event, onEvent);
  });
}

/** Collects every payload of an event from now on. */
export function record<T = unknown>(socket: Socket, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (payload: T) => seen.push(payload));
  return seen;
}

export function subscribe(socket: Socket, room: string): Promise<SubscribeAck> {
  return socket.timeout(3000).emitWithAck(REALTIME_EVENTS.subscribe, { room }) as Promise<SubscribeAck>;
}

/** Resolves when the socket is disconnected (by the server or otherwise). */
export function disconnected(socket: Socket, ms = 3000): Promise<string> {
  if (socket.disconnected) return Promise.resolve('already disconnected');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still connected after ${ms} ms`)), ms);
    socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}

const SENTINEL_EVENT = 'test:sentinel';
let sentinels = 0;

/**
 * Proves that nothing more reached `socket` from what was published before this call: publishes a
 * sentinel to the socket's own user room and waits for it. Pushes to one socket arrive in the order they
 * were sent, so anything published earlier would have arrived first. (A fixed wait would pass when a
 * push is merely slow.)
 */
export async function afterSentinel(
  hub: { publish(room: string, event: string, payload: unknown): void },
  socket: Socket,
  userId: string,
): Promise<void> {
  sentinels += 1;
  const id = sentinels;
  const arrived = nextEvent<{ id: number }>(socket, SENTINEL_EVENT, (p) => p.id === id);
  hub.publish(userRoom(userId), SENTINEL_EVENT, { id });
  await arrived;
}

/**
 * Returns once the server has handled every event this socket sent before: it handles one socket's
 * events in order, and this one (a malformed subscribe) is answered at once.
 */
export async function roundTrip(socket: Socket): Promise<void> {
  const ack = await subscribe(socket, 'round-trip');
  if (ack.ok) throw new Error('the round-trip probe was admitted to a room');
}

import {
  type ClientEventAck,
  type ClientEventInput,
  type ClientEventName,
  clientEventAck,
  REALTIME_EVENTS,
  REALTIME_PATH,
  type SessionEnded,
} from '@guildhall/common';
import { io, type Socket } from 'socket.io-client';
import { ACCESS_CHANGED_EVENT, SESSION_INVALID_EVENT } from '../api/client.ts';

type Shared = { socket: Socket; token: string; users: number; closeTimer?: ReturnType<typeof setTimeout> };

/** Kept open this long after the last screen using it goes away, so moving between pages reuses it. */
const LINGER_MS = 5000;

let shared: Shared | null = null;

/**
 * The tab's one realtime connection, shared by every feature and authenticated by the session token.
 * Call releaseSocket() when done. A session the server ends signs the tab out, as a 401 does.
 */
export function acquireSocket(token: string): Socket {
  // A socket refused for good (closed, not reconnecting) is replaced on the next use.
  if (shared && (shared.token !== token || (!shared.socket.active && shared.users === 0))) {
    shared.socket.close();
    shared = null;
  }
  if (!shared) {
    const socket = io({
      path: REALTIME_PATH,
      auth: { token },
      // WebSocket first; long-polling when a proxy refuses the upgrade.
      transports: ['websocket', 'polling'],
      // A handshake that has not finished in 5 s (a proxy that accepts the socket but never passes it
      // on) counts as failed, so the screen says Polling instead of Connecting... for Socket.IO's 20 s.
      timeout: 5000,
    });
    /** The server closes the socket after ACCESS_CHANGED; the session is good, so it reconnects. */
    let reconnectAfterClose = false;
    socket.on(REALTIME_EVENTS.sessionEnded, (ended: SessionEnded) => {
      if (ended.code === 'AUTH_REQUIRED') window.dispatchEvent(new Event(SESSION_INVALID_EVENT));
      if (ended.code === 'ACCESS_CHANGED') {
        reconnectAfterClose = true;
        window.dispatchEvent(new Event(ACCESS_CHANGED_EVENT));
      }
    });
    socket.on('disconnect', (reason) => {
      // Socket.IO never retries a server-side disconnect by itself: this one it should (the rooms are
      // joined again on connect, authorized at the new level).
      if (reason === 'io server disconnect' && reconnectAfterClose) socket.connect();
      reconnectAfterClose = false;
    });
    socket.on('connect_error', (err: Error & { data?: { code?: string } }) => {
      // A handshake refused for who the user is will be refused again: stop retrying (polling carries
      // on). A rate-limited one is retried by Socket.IO's backoff.
      if (err.data?.code && err.data.code !== 'RATE_LIMITED') socket.close();
      if (err.data?.code === 'AUTH_REQUIRED') window.dispatchEvent(new Event(SESSION_INVALID_EVENT));
    });
    shared = { socket, token, users: 0 };
  }
  clearTimeout(shared.closeTimer);
  shared.users += 1;
  return shared.socket;
}

export function releaseSocket(socket: Socket): void {
  const entry = shared;
  if (!entry || entry.socket !== socket) return;
  entry.users -= 1;
  if (entry.users > 0) return;
  entry.closeTimer = setTimeout(() => {
    if (shared === entry && entry.users === 0) {
      entry.socket.close();
      shared = null;
    }
  }, LINGER_MS);
}

/**
 * Sends a client event (`CLIENT_EVENTS` in common/: only its declared payload) on a connected socket and
 * returns the ack parsed with the event's schema: `{ok: true, ...result}` or a refusal with a catalogue
 * code. Rejects when no ack comes within `timeoutMs`.
 */
export async function emitClientEvent<E extends ClientEventName>(
  socket: Socket,
  event: E,
  payload: ClientEventInput<E>,
  timeoutMs = 5000,
): Promise<ClientEventAck<E>> {
  return clientEventAck(event).parse(await socket.timeout(timeoutMs).emitWithAck(event, payload));
}

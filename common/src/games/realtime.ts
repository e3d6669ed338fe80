import type { ErrorCode } from '../error-codes.ts';

/**
 * The realtime channel's protocol (docs/realtime.md): Socket.IO on the portal's own origin, the session
 * token in the handshake, rooms named `<type>:<key>` that a client asks to join with `subscribe`.
 */
export const REALTIME_PATH = '/socket.io';

/** Client → server and server → client event names shared by every feature. */
export const REALTIME_EVENTS = {
  /** client → server: `{room}` with an ack `SubscribeAck`; the server replies with the room's full state. */
  subscribe: 'subscribe',
  /** client → server: `{room}`; stops pushes for that room. */
  unsubscribe: 'unsubscribe',
  /** server → client: `{code, message}` just before the server drops a socket whose session ended. */
  sessionEnded: 'session:ended',
  /** server → client: `{message}` just before the server drops this socket because the account opened too many. */
  replaced: 'connection:replaced',
} as const;

/** Codes carried by a refused handshake (`connect_error` → `err.data.code`) and by `session:ended`. */
export type RealtimeRefusalCode = 'AUTH_REQUIRED' | 'NOT_APPROVED' | 'FORBIDDEN' | 'RATE_LIMITED';

export type SubscribeRequest = { room: string };
export type SubscribeAck = { ok: true } | { ok: false; error: string; code?: ErrorCode };
/**
 * `ACCESS_CHANGED`: the session is still good but the account's level changed (an admin, or Discord's roles
 * through the role sync): the client reads its account again and reconnects, and its rooms are authorized
 * anew at the new level. The other codes end the session.
 */
export type SessionEnded = { code: RealtimeRefusalCode | 'ACCESS_CHANGED'; message: string };

/** The room every socket of a user joins on connect (one user, many tabs, any instance). */
export function userRoom(userId: string): string {
  return `user:${userId}`;
}

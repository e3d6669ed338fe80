import {
  REALTIME_EVENTS,
  type RealtimeEventName,
  type RealtimeEventPayload,
  type SubscribeAck,
} from '@guildhall/common';
import { useEffect, useRef, useState } from 'react';
import { useAuth } from '../auth/useAuth.ts';
import { acquireSocket, releaseSocket } from './socket.ts';

export type RealtimeStatus = 'off' | 'connecting' | 'live';

/**
 * Joins a realtime room (e.g. `tictactoe:<id>`) for as long as the component wants it, and calls
 * `onMessage` with every `event` pushed to it. The server answers each join with the room's full state,
 * and the join is repeated on every reconnect, so a client that was away catches up at once.
 * `room` null means no room (nothing to watch yet). `event` is one of FEATURE_EVENTS (common/): the
 * server's pushes and room snapshots are checked against its schema at compile time, so the payload
 * arrives typed.
 */
export function useRealtimeRoom<E extends RealtimeEventName>(
  room: string | null,
  event: E,
  onMessage: (payload: RealtimeEventPayload<E>) => void,
) {
  const { token } = useAuth();
  const handler = useRef(onMessage);
  handler.current = onMessage;
  const [status, setStatus] = useState<RealtimeStatus>('off');

  useEffect(() => {
    if (!room || !token) return;
    const socket = acquireSocket(token);
    let active = true;
    const onEvent = (payload: RealtimeEventPayload<E>) => handler.current(payload);
    const join = () => {
      setStatus('connecting');
      socket
        .timeout(5000)
        .emitWithAck(REALTIME_EVENTS.subscribe, { room })
        .then(
          (ack: SubscribeAck) => active && setStatus(ack.ok ? 'live' : 'off'),
          () => active && setStatus('off'),
        );
    };
    const onDisconnect = () => setStatus('connecting');
    // Refused (the session ended) or unreachable (a proxy blocking WebSockets): until a connect
    // succeeds, only the polling brings updates, and the badge says so. Socket.IO keeps retrying
    // unless the server refused for good.
    const onRefused = () => setStatus('off');
    socket.on(event as string, onEvent);
    socket.on('connect', join);
    socket.on('disconnect', onDisconnect);
    socket.on('connect_error', onRefused);
    // A connection that keeps failing without an error (closed before the handshake) shows up as retries.
    socket.io.on('reconnect_attempt', onRefused);
    if (socket.connected) join();
    else setStatus('connecting');
    return () => {
      active = false;
      socket.off(event as string, onEvent);
      socket.off('connect', join);
      socket.off('disconnect', onDisconnect);
      socket.off('connect_error', onRefused);
      socket.io.off('reconnect_attempt', onRefused);
      if (socket.connected) socket.emit(REALTIME_EVENTS.unsubscribe, { room });
      releaseSocket(socket);
      setStatus('off');
    };
  }, [room, event, token]);

  return status;
}

import { REALTIME_EVENTS, type SubscribeAck } from '@guildhall/common';
import { useEffect, useRef, useState } from 'react';
import { useAuth } from '../auth/useAuth.ts';
import { acquireSocket, releaseSocket } from './socket.ts';

export type RealtimeStatus = 'off' | 'connecting' | 'live';

/**
 * Joins a realtime room (e.g. `tictactoe:<id>`) for as long as the component wants it, and calls
 * `onMessage` with every `event` pushed to it. The server answers each join with the room's full state,
 * and the join is repeated on every reconnect, so a client that was away catches up at once.
 * `room` null means no room (nothing to watch yet).
 */
export function useRealtimeRoom<T>(room: string | null, event: string, onMessage: (payload: T) => void) {
  const { token } = useAuth();
  const handler = useRef(onMessage);
  handler.current = onMessage;
  const [status, setStatus] = useState<RealtimeStatus>('off');

  useEffect(() => {
    if (!room || !token) return;
    const socket = acquireSocket(token);
    let active = true;
    const onEvent = (payload: T) => handler.current(payload);
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
    socket.on(event, onEvent);
    socket.on('connect', join);
    socket.on('disconnect', onDisconnect);
    socket.on('connect_error', onRefused);
    // A connection that keeps failing without an error (closed before the handshake) shows up as retries.
    socket.io.on('reconnect_attempt', onRefused);
    if (socket.connected) join();
    else setStatus('connecting');
    return () => {
      active = false;
      socket.off(event, onEvent);
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

import { useEffect, useRef } from 'react';
import { useAuth } from '../../../auth/useAuth.ts';
import { acquireSocket, releaseSocket } from '../../../realtime/socket.ts';

/**
 * Listens to one more event on the tab's realtime connection while `enabled` (the room itself is joined by
 * useRealtimeRoom; this only adds a listener, e.g. the strokes of the room's game).
 */
export function useSocketEvent<T>(event: string, enabled: boolean, onMessage: (payload: T) => void): void {
  const { token } = useAuth();
  const handler = useRef(onMessage);
  handler.current = onMessage;
  useEffect(() => {
    if (!enabled || !token) return;
    const socket = acquireSocket(token);
    const on = (payload: T) => handler.current(payload);
    socket.on(event, on);
    return () => {
      socket.off(event, on);
      releaseSocket(socket);
    };
  }, [event, enabled, token]);
}

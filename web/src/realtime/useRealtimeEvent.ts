import type { RealtimeEventName, RealtimeEventPayload } from '@guildhall/common';
import { useEffect, useRef } from 'react';
import { useAuth } from '../auth/useAuth.ts';
import { acquireSocket, releaseSocket } from './socket.ts';

/**
 * Listens to one server push (`FEATURE_EVENTS` in common/) on the tab's realtime connection while
 * `enabled`, with its payload typed by that event's schema. The connection is shared and held while a
 * listener needs it; joining a room is useRealtimeRoom's job, this only listens (a game's strokes, a
 * search's progress in the user's own room).
 */
export function useRealtimeEvent<E extends RealtimeEventName>(
  event: E,
  enabled: boolean,
  onMessage: (payload: RealtimeEventPayload<E>) => void,
): void {
  const { token } = useAuth();
  const handler = useRef(onMessage);
  handler.current = onMessage;
  useEffect(() => {
    if (!enabled || !token) return;
    const socket = acquireSocket(token);
    const on = (payload: RealtimeEventPayload<E>) => handler.current(payload);
    socket.on(event as string, on);
    return () => {
      socket.off(event as string, on);
      releaseSocket(socket);
    };
  }, [event, enabled, token]);
}

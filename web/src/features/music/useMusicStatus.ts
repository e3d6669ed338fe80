import {
  MUSIC_STATUS_EVENT,
  MUSIC_STATUS_POLL_MS,
  type MusicStatusPush,
  musicRoom,
  type PlaybackStatus,
} from '@guildhall/common';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useRealtimeRoom } from '../../realtime/useRealtimeRoom.ts';
import * as api from './api.ts';
import { newerStatus } from './playback-clock.ts';

/** A status and the local moment it arrived (the scrubber's anchor). */
export type StatusEntry = { status: PlaybackStatus; receivedAt: number };

export const statusKey = (guildId: string | null) => ['music', 'status', guildId] as const;

/** Stores a status unless the cache holds a later one of the same guild. */
export function storeStatus(qc: QueryClient, status: PlaybackStatus): void {
  qc.setQueryData<StatusEntry>(statusKey(status.guildId), (held) => {
    const kept = newerStatus(held?.status, status);
    return kept === held?.status ? held : { status: kept, receivedAt: performance.now() };
  });
}

/**
 * A guild's playback status: pushed over the realtime channel the moment it changes (every open panel
 * follows at once), with the spec's 10 s poll as the fallback.
 */
export function useMusicStatus(guildId: string | null) {
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: statusKey(guildId),
    queryFn: async (): Promise<StatusEntry> => {
      const status = await api.fetchStatus(guildId!);
      const held = qc.getQueryData<StatusEntry>(statusKey(guildId));
      const kept = newerStatus(held?.status, status);
      return kept === held?.status && held ? held : { status: kept, receivedAt: performance.now() };
    },
    enabled: guildId !== null,
    refetchInterval: MUSIC_STATUS_POLL_MS,
    refetchIntervalInBackground: true,
  });

  const onPush = useCallback(
    (push: MusicStatusPush) => {
      if (push.status.guildId === guildId) storeStatus(qc, push.status);
    },
    [qc, guildId],
  );
  const realtime = useRealtimeRoom(guildId ? musicRoom(guildId) : null, MUSIC_STATUS_EVENT, onPush);

  return { entry: query.data ?? null, isLoading: query.isLoading, error: query.error, realtime };
}

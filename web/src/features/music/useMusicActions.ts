import {
  type EqSettings,
  type MusicEffect,
  type PlaybackStatus,
  type SearchResult,
  MUSIC_TEXTS as T,
} from '@guildhall/common';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../../auth/useAuth.ts';
import * as api from './api.ts';
import { moveItem } from './queue-order.ts';
import { type StatusEntry, statusKey, storeStatus } from './useMusicStatus.ts';

type Feedback = { showError: (text: string, detail?: string) => void; showSuccess: (text: string) => void };

/** A Discord user id (snowflake); the access-code identity has none, so it cannot play. */
const isSnowflake = (id: string | undefined) => !!id && /^\d{5,20}$/.test(id);

/**
 * Everything the panel asks the bot to do. Each answer carries the new status, which is stored at once
 * (the realtime push that follows confirms it); each failure shows the spec's message in the banner.
 */
export function useMusicActions(guildId: string | null, feedback: Feedback) {
  const qc = useQueryClient();
  const { user } = useAuth();
  const fail = (label: string) => (e: unknown) => feedback.showError(label, api.errorText(e, label));
  const need = () => {
    if (!guildId) throw new Error(T.botOffline);
    return guildId;
  };

  const play = useMutation({
    mutationFn: (song: Pick<SearchResult, 'url' | 'title'>) => {
      if (!isSnowflake(user?.id)) throw new Error(T.discordIdMissing);
      return api.play(need(), song.url, user!.id);
    },
    onSuccess: (res) => {
      storeStatus(qc, res.status);
      feedback.showSuccess(
        res.action === 'playing' ? `Now playing: ${res.song.title}` : `Added to queue: ${res.song.title}`,
      );
    },
    onError: (e) =>
      e instanceof Error && e.message === T.discordIdMissing
        ? feedback.showError(T.discordIdMissing)
        : fail(T.playFailed)(e),
  });

  const control = useMutation({
    mutationFn: (action: api.ControlAction) => api.control(action, need()),
    onSuccess: (res) => storeStatus(qc, res.status),
    onError: (e, action) =>
      fail(
        {
          pause: T.pauseResumeFailed,
          resume: T.pauseResumeFailed,
          skip: T.skipFailed,
          stop: T.stopFailed,
          restart: T.restartFailed,
        }[action],
      )(e),
  });

  const clearQueue = useMutation({
    mutationFn: () => api.clearQueue(need()),
    onSuccess: (res) => {
      storeStatus(qc, res.status);
      feedback.showSuccess('Queue cleared');
    },
    onError: fail(T.clearQueueFailed),
  });

  /** Clear all: empty the queue, then stop what plays. */
  const clearAll = useMutation({
    mutationFn: async () => {
      const g = need();
      await api.clearQueue(g);
      return api.control('stop', g);
    },
    onSuccess: (res) => {
      storeStatus(qc, res.status);
      feedback.showSuccess('Stopped and cleared the queue');
    },
    onError: fail(T.stopFailed),
  });

  const reorder = useMutation({
    mutationFn: ({ from, to }: { from: number; to: number }) => api.reorderQueue(need(), from, to),
    // The new order shows at once; the answer (or, on failure, a refetch) settles it.
    onMutate: ({ from, to }) => {
      const key = statusKey(guildId);
      const held = qc.getQueryData<StatusEntry>(key);
      if (held) {
        const status: PlaybackStatus = { ...held.status, queue: moveItem(held.status.queue, from, to) };
        qc.setQueryData<StatusEntry>(key, { ...held, status });
      }
    },
    onSuccess: (res) => storeStatus(qc, res.status),
    onError: (e) => {
      fail(T.reorderFailed)(e);
      void qc.invalidateQueries({ queryKey: statusKey(guildId) });
    },
  });

  const seek = useMutation({
    mutationFn: (time: number) => api.seek(need(), time),
    onSuccess: (res) => storeStatus(qc, res.status),
    onError: fail(T.seekFailed),
  });

  const effects = useMutation({
    mutationFn: (list: MusicEffect[]) => api.setEffects(need(), list),
    onSuccess: (res) => storeStatus(qc, res.status),
    onError: fail(T.effectFailed),
  });

  const equalizer = useMutation({
    mutationFn: (eq: EqSettings) => api.setEqualizer(need(), eq),
    onSuccess: (res) => storeStatus(qc, res.status),
    onError: fail(T.eqFailed),
  });

  return {
    play: (song: Pick<SearchResult, 'url' | 'title'>) => play.mutate(song),
    isPlayingSong: play.isPending,
    control: (action: api.ControlAction) => control.mutate(action),
    isControlling: control.isPending || clearAll.isPending || clearQueue.isPending,
    clearQueue: () => clearQueue.mutate(),
    clearAll: () => clearAll.mutate(),
    reorder: (from: number, to: number) => reorder.mutate({ from, to }),
    seek: (time: number) => seek.mutate(time),
    setEffects: (list: MusicEffect[]) => effects.mutate(list),
    setEqualizer: (eq: EqSettings) => equalizer.mutate(eq),
  };
}

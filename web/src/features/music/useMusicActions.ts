import {
  type EqSettings,
  type MusicEffect,
  type MusicLoopMode,
  type MusicOptionKey,
  type PlaybackStatus,
  type SearchResult,
  type SpotifySkipped,
  MUSIC_TEXTS as T,
} from '@guildhall/common';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
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
  /** The tracks of the last Spotify link that were not queued, with their reasons (shown until dismissed). */
  const [skipped, setSkipped] = useState<SpotifySkipped[]>([]);
  const fail = (label: string) => (e: unknown) => feedback.showError(label, api.errorText(e, label));
  const need = () => {
    if (!guildId) throw new Error(T.botOffline);
    return guildId;
  };

  const play = useMutation({
    mutationFn: (song: Pick<SearchResult, 'url' | 'title'>) => {
      // Refused here as the server would refuse it (400 DISCORD_ID_MISSING), so one check handles both.
      if (!isSnowflake(user?.id)) throw new ApiError(T.discordIdMissing, 400, 'DISCORD_ID_MISSING');
      return api.play(need(), song.url, user!.id);
    },
    onSuccess: (res) => {
      storeStatus(qc, res.status);
      setSkipped(res.skipped ?? []);
      // A list link (a SoundCloud set) says how many tracks it queued, and when it was cut.
      feedback.showSuccess(
        res.message ??
          (res.action === 'playing' ? `Now playing: ${res.song.title}` : `Added to queue: ${res.song.title}`),
      );
    },
    onError: (e) =>
      e instanceof ApiError && e.code === 'DISCORD_ID_MISSING'
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

  /** Shows a change at once (same anchor and server time, so the next real status replaces it). */
  const optimistic = (change: (s: PlaybackStatus) => Partial<PlaybackStatus>) => {
    const key = statusKey(guildId);
    const held = qc.getQueryData<StatusEntry>(key);
    if (held)
      qc.setQueryData<StatusEntry>(key, { ...held, status: { ...held.status, ...change(held.status) } });
  };
  /** After a failure: the banner, and the server's real state instead of the optimistic one. */
  const failAndReload = (label: string) => (e: unknown) => {
    fail(label)(e);
    void qc.invalidateQueries({ queryKey: statusKey(guildId) });
  };

  const reorder = useMutation({
    mutationFn: ({ from, to }: { from: number; to: number }) => api.reorderQueue(need(), from, to),
    onMutate: ({ from, to }) => optimistic((s) => ({ queue: moveItem(s.queue, from, to) })),
    onSuccess: (res) => storeStatus(qc, res.status),
    onError: failAndReload(T.reorderFailed),
  });

  const seek = useMutation({
    mutationFn: (time: number) => api.seek(need(), time),
    onSuccess: (res) => storeStatus(qc, res.status),
    onError: fail(T.seekFailed),
  });

  const effects = useMutation({
    mutationFn: (list: MusicEffect[]) => api.setEffects(need(), list),
    onMutate: (list) => optimistic(() => ({ activeEffects: list })),
    onSuccess: (res) => storeStatus(qc, res.status),
    onError: failAndReload(T.effectFailed),
  });

  const equalizer = useMutation({
    mutationFn: (eq: EqSettings) => api.setEqualizer(need(), eq),
    onMutate: (eq) => optimistic(() => ({ eqSettings: eq })),
    onSuccess: (res) => storeStatus(qc, res.status),
    onError: failAndReload(T.eqFailed),
  });

  // Volume, loop, normalisation, shuffle, remove, play next (issue 27): the answer's message is shown
  // when it says more than the control did (a skip vote, a song removed).
  const setting = useMutation({
    mutationFn: (
      change:
        | { kind: 'volume'; volume: number }
        | { kind: 'loop'; mode: MusicLoopMode }
        | { kind: 'normalize'; enabled: boolean }
        | { kind: 'option'; option: MusicOptionKey; enabled: boolean }
        | { kind: 'shuffle' }
        | { kind: 'remove'; entryId: string }
        | { kind: 'next'; entryId: string },
    ) => {
      const g = need();
      if (change.kind === 'volume') return api.setVolume(g, change.volume);
      if (change.kind === 'loop') return api.setLoop(g, change.mode);
      if (change.kind === 'normalize') return api.setNormalize(g, change.enabled);
      if (change.kind === 'option') return api.setOption(g, change.option, change.enabled);
      if (change.kind === 'shuffle') return api.shuffleQueue(g);
      if (change.kind === 'remove') return api.removeFromQueue(g, change.entryId);
      return api.playNext(g, change.entryId);
    },
    onMutate: (change) => {
      if (change.kind === 'volume') optimistic(() => ({ volume: change.volume }));
      if (change.kind === 'loop') optimistic(() => ({ loop: change.mode }));
      if (change.kind === 'normalize') optimistic(() => ({ normalize: change.enabled }));
      if (change.kind === 'option')
        optimistic((s) => ({ options: { ...s.options, [change.option]: change.enabled } }));
      if (change.kind === 'remove')
        optimistic((s) => ({ queue: s.queue.filter((q) => q.entryId !== change.entryId) }));
    },
    onSuccess: (res, change) => {
      storeStatus(qc, res.status);
      if (
        change.kind === 'shuffle' ||
        change.kind === 'remove' ||
        change.kind === 'next' ||
        change.kind === 'option'
      )
        feedback.showSuccess(res.message);
    },
    onError: failAndReload(T.controlFailed),
  });

  const skip = useMutation({
    mutationFn: () => api.control('skip', need()),
    onSuccess: (res) => {
      storeStatus(qc, res.status);
      // A vote that did not skip yet says how many more are needed.
      if (res.message !== T.skipped) feedback.showSuccess(res.message);
    },
    onError: fail(T.skipFailed),
  });

  return {
    skip: () => skip.mutate(),
    setVolume: (volume: number) => setting.mutate({ kind: 'volume', volume }),
    setLoop: (mode: MusicLoopMode) => setting.mutate({ kind: 'loop', mode }),
    setNormalize: (enabled: boolean) => setting.mutate({ kind: 'normalize', enabled }),
    setOption: (option: MusicOptionKey, enabled: boolean) =>
      setting.mutate({ kind: 'option', option, enabled }),
    shuffle: () => setting.mutate({ kind: 'shuffle' }),
    remove: (entryId: string) => setting.mutate({ kind: 'remove', entryId }),
    playNext: (entryId: string) => setting.mutate({ kind: 'next', entryId }),
    play: (song: Pick<SearchResult, 'url' | 'title'>) => play.mutate(song),
    skipped,
    dismissSkipped: () => setSkipped([]),
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

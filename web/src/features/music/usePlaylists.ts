import {
  MUSIC_SAVED_MARKER_MS,
  type Playlist,
  type PlaylistWithSongs,
  MUSIC_TEXTS as T,
} from '@guildhall/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { useAuth } from '../../auth/useAuth.ts';
import * as api from './api.ts';
import { savedKey } from './saved-marks.ts';
import { storeStatus } from './useMusicStatus.ts';

type Feedback = { showError: (text: string, detail?: string) => void; showSuccess: (text: string) => void };

const listKey = (guildId: string | null) => ['music', 'playlists', guildId] as const;
const playlistKey = (id: string | null) => ['music', 'playlist', id] as const;

/**
 * The Playlists tab's data and actions: the guild's playlists (mine and others' public ones), the open
 * one with its songs, and the "saved" marker that blocks saving the same song twice for 3 s.
 */
export function usePlaylists(guildId: string | null, feedback: Feedback) {
  const qc = useQueryClient();
  const { user } = useAuth();
  const [openId, setOpenId] = useState<string | null>(null);
  const [saved, setSaved] = useState<ReadonlySet<string>>(new Set());
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const all = timers.current;
    return () => {
      for (const t of all) clearTimeout(t);
    };
  }, []);

  const fail = (label: string) => (e: unknown) => feedback.showError(label, api.errorText(e, label));
  const list = useQuery({
    queryKey: listKey(guildId),
    queryFn: () => api.fetchPlaylists(guildId!),
    enabled: guildId !== null,
  });
  const open = useQuery({
    queryKey: playlistKey(openId),
    queryFn: () => api.fetchPlaylist(openId!),
    enabled: openId !== null,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: report each load failure once, not on every render.
  useEffect(() => {
    if (open.error) fail(T.loadPlaylistFailed)(open.error);
  }, [open.error]);

  const refresh = (playlist?: PlaylistWithSongs) => {
    if (playlist) qc.setQueryData(playlistKey(playlist.id), playlist);
    void qc.invalidateQueries({ queryKey: listKey(guildId) });
  };

  const create = useMutation({
    mutationFn: ({ name, isPublic }: { name: string; isPublic: boolean }) =>
      api.createPlaylist(guildId!, name, isPublic),
    onSuccess: (p) => {
      refresh(p);
      setOpenId(p.id);
      feedback.showSuccess(`Created playlist ${p.name}`);
    },
    onError: fail(T.createPlaylistFailed),
  });

  const remove = useMutation({
    mutationFn: (p: Playlist) => api.deletePlaylist(p.id),
    onSuccess: (_res, p) => {
      if (openId === p.id) setOpenId(null);
      qc.removeQueries({ queryKey: playlistKey(p.id) });
      refresh();
      feedback.showSuccess(`Deleted playlist ${p.name}`);
    },
    onError: fail(T.deletePlaylistFailed),
  });

  const visibility = useMutation({
    mutationFn: (p: Playlist) => api.setPlaylistVisibility(p.id, !p.is_public),
    onSuccess: (p) => {
      refresh(p);
      feedback.showSuccess(`${p.name} is now ${p.is_public ? 'public' : 'private'}`);
    },
    onError: fail(T.visibilityFailed),
  });

  const mark = (key: string) => {
    setSaved((s) => new Set(s).add(key));
    const t = setTimeout(() => {
      timers.current.delete(t);
      setSaved((s) => {
        const next = new Set(s);
        next.delete(key);
        return next;
      });
    }, MUSIC_SAVED_MARKER_MS);
    timers.current.add(t);
  };

  const addSong = useMutation({
    mutationFn: ({ playlistId, song }: { playlistId: string; song: api.SongInfo }) =>
      api.addPlaylistSong(playlistId, song),
    onSuccess: (res, { playlistId, song }) => {
      mark(savedKey(playlistId, song.url));
      void qc.invalidateQueries({ queryKey: playlistKey(playlistId) });
      refresh();
      feedback.showSuccess(`Saved ${song.title} to ${res.playlist.name}`);
    },
    onError: (e) =>
      e instanceof ApiError && e.code === 'SONG_ALREADY_ADDED'
        ? feedback.showError(T.songAlreadyAdded)
        : fail(T.addSongFailed)(e),
  });

  const removeSong = useMutation({
    mutationFn: ({ playlistId, songId }: { playlistId: string; songId: string }) =>
      api.removePlaylistSong(playlistId, songId),
    onSuccess: (p) => refresh(p),
    onError: fail(T.removeSongFailed),
  });

  const start = useMutation({
    mutationFn: ({ p, mode, shuffle }: { p: Playlist; mode: 'play' | 'queue'; shuffle: boolean }) =>
      mode === 'play'
        ? api.playPlaylist(p.id, guildId!, shuffle)
        : api.queuePlaylist(p.id, guildId!, shuffle),
    onSuccess: (res, { p, mode }) => {
      storeStatus(qc, res.status);
      feedback.showSuccess(
        mode === 'play'
          ? `Playing ${p.name}`
          : `Added ${res.added} song${res.added === 1 ? '' : 's'} to the queue`,
      );
    },
    onError: (e, { mode }) => fail(mode === 'play' ? T.playPlaylistFailed : T.queuePlaylistFailed)(e),
  });

  const playlists = list.data ?? [];
  return {
    playlists,
    mine: playlists.filter((p) => p.created_by === user?.id),
    isLoading: list.isLoading,
    openId,
    open: openId ? (open.data ?? null) : null,
    isOpening: open.isLoading,
    toggleOpen: (id: string) => setOpenId((cur) => (cur === id ? null : id)),
    isMine: (p: Playlist) => p.created_by === user?.id,
    isSaved: (playlistId: string, url: string) => saved.has(savedKey(playlistId, url)),
    create: (name: string, isPublic: boolean) => create.mutate({ name, isPublic }),
    isCreating: create.isPending,
    remove: (p: Playlist) =>
      remove.mutateAsync(p).then(
        () => undefined,
        () => undefined,
      ),
    toggleVisibility: (p: Playlist) => visibility.mutate(p),
    /** Saves a song, unless it was just saved there ("Song already added to this playlist!"). */
    addSong: (playlistId: string, song: api.SongInfo) => {
      if (saved.has(savedKey(playlistId, song.url))) {
        feedback.showError(T.songAlreadyAdded);
        return;
      }
      addSong.mutate({ playlistId, song });
    },
    removeSong: (playlistId: string, songId: string) => removeSong.mutate({ playlistId, songId }),
    start: (p: Playlist, mode: 'play' | 'queue', shuffle: boolean) => start.mutate({ p, mode, shuffle }),
  };
}

export type PlaylistsState = ReturnType<typeof usePlaylists>;

/** The spec's song info from a search result, queued song or playing song. */
export function songInfoOf(s: {
  youtube_id: string;
  title: string;
  uploader: string;
  duration: number;
  url: string;
  thumbnail: string | null;
}): api.SongInfo {
  return {
    youtube_id: s.youtube_id,
    title: s.title,
    uploader: s.uploader,
    duration: s.duration,
    url: s.url,
    thumbnail: s.thumbnail,
  };
}

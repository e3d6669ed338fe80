import { PLAYLIST_NAME_MAX_CHARS, type Playlist, MUSIC_TEXTS as T } from '@guildhall/common';
import { ChevronDown, Globe, ListPlus, Lock, Play, Plus, Shuffle, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { cn } from '../../ui/cn.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import { formatDuration } from './playback-clock.ts';
import { SongThumb } from './SongBits.tsx';
import type { PlaylistsState } from './usePlaylists.ts';

const inputClass =
  'h-10 w-full min-w-0 rounded-lg border border-border bg-bg/60 px-3 text-sm text-text placeholder:text-muted/70 focus:border-brand focus:outline-none';

/**
 * Playlists of this server: create (name, public or private), open, play, add to the queue, delete, and
 * edit songs. Only the creator sees the public/private switch and the edit actions; others' public
 * playlists show who made them (portal-tools §2, §6).
 */
export function PlaylistsTab({
  playlists,
  canPlay,
  showError,
}: {
  playlists: PlaylistsState;
  canPlay: boolean;
  showError: (text: string) => void;
}) {
  const [name, setName] = useState('');
  const [isPublic, setPublic] = useState(false);
  const [shuffle, setShuffle] = useState(false);
  const [toDelete, setToDelete] = useState<Playlist | null>(null);

  return (
    <div className="space-y-5">
      <form
        className="flex flex-col gap-2 sm:flex-row sm:items-center"
        onSubmit={(e) => {
          e.preventDefault();
          const trimmed = name.trim();
          if (!trimmed) return showError(T.playlistNameRequired);
          playlists.create(trimmed, isPublic);
          setName('');
        }}
      >
        <input
          aria-label="New playlist name"
          placeholder="New playlist name"
          maxLength={PLAYLIST_NAME_MAX_CHARS}
          value={name}
          onChange={(e) => setName(e.target.value)}
          className={inputClass}
        />
        <div className="flex items-center gap-2">
          <label className="flex h-10 cursor-pointer items-center gap-2 rounded-lg border border-border px-3 text-sm text-muted has-[:checked]:text-text">
            <input
              type="checkbox"
              checked={isPublic}
              onChange={(e) => setPublic(e.target.checked)}
              className="accent-brand"
            />
            Public
          </label>
          <Button
            type="submit"
            disabled={!canPlay || playlists.isCreating}
            icon={<Plus className="size-4" />}
            className="flex-1 sm:flex-none"
          >
            Create
          </Button>
        </div>
      </form>

      <label className="flex w-fit cursor-pointer items-center gap-2 text-sm text-muted">
        <input
          type="checkbox"
          checked={shuffle}
          onChange={(e) => setShuffle(e.target.checked)}
          className="accent-brand"
        />
        <Shuffle className="size-4" />
        Shuffle when playing or queueing a playlist
      </label>

      {playlists.isLoading ? (
        <div className="flex justify-center py-6">
          <Spinner />
        </div>
      ) : playlists.playlists.length === 0 ? (
        <p className="py-6 text-center text-sm text-muted">No playlists yet. Create the first one above.</p>
      ) : (
        <ul className="space-y-2" data-testid="playlists">
          {playlists.playlists.map((p) => (
            <PlaylistRow
              key={p.id}
              playlist={p}
              playlists={playlists}
              canPlay={canPlay}
              shuffle={shuffle}
              onDelete={() => setToDelete(p)}
            />
          ))}
        </ul>
      )}
      {toDelete && (
        <ConfirmDialog
          title="Delete playlist"
          confirmLabel="Delete"
          danger
          onConfirm={() => playlists.remove(toDelete)}
          onClose={() => setToDelete(null)}
        >
          {T.confirmDeletePlaylist}
        </ConfirmDialog>
      )}
    </div>
  );
}

function PlaylistRow({
  playlist: p,
  playlists,
  canPlay,
  shuffle,
  onDelete,
}: {
  playlist: Playlist;
  playlists: PlaylistsState;
  canPlay: boolean;
  shuffle: boolean;
  onDelete: () => void;
}) {
  const isMine = playlists.isMine(p);
  const isOpen = playlists.openId === p.id;
  const open = isOpen ? playlists.open : null;
  return (
    <li data-testid="playlist" data-name={p.name} className="rounded-xl border border-border bg-bg/50">
      <div className="flex flex-wrap items-center gap-2 p-2 pl-3">
        <button
          type="button"
          aria-expanded={isOpen}
          onClick={() => playlists.toggleOpen(p.id)}
          className="flex min-w-[min(100%,12rem)] flex-1 items-center gap-2 rounded-lg py-1 text-left"
        >
          <ChevronDown
            className={cn('size-4 shrink-0 text-muted transition-transform', isOpen && 'rotate-180')}
          />
          <span className="min-w-0">
            <span className="flex items-center gap-1.5 font-medium">
              {p.is_public ? (
                <Globe className="size-3.5 shrink-0 text-muted" aria-hidden="true" />
              ) : (
                <Lock className="size-3.5 shrink-0 text-muted" aria-hidden="true" />
              )}
              <span className="truncate">{p.name}</span>
            </span>
            <span className="block truncate text-xs text-muted">
              {p.song_count} song{p.song_count === 1 ? '' : 's'}
              {!isMine && (
                <>
                  {' '}
                  · by <span data-testid="playlist-creator">{p.creator_name}</span>
                </>
              )}
            </span>
          </span>
        </button>
        {isMine && (
          <label className="flex cursor-pointer items-center gap-2 text-xs text-muted">
            <input
              type="checkbox"
              data-testid="visibility-toggle"
              aria-label={`${p.name} is public`}
              checked={p.is_public}
              onChange={() => playlists.toggleVisibility(p)}
              className="peer sr-only"
            />
            <span
              aria-hidden="true"
              className="relative h-5 w-9 rounded-full bg-border transition-colors peer-checked:bg-brand peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand after:absolute after:top-0.5 after:left-0.5 after:size-4 after:rounded-full after:bg-white after:transition-transform peer-checked:after:translate-x-4"
            />
            Public
          </label>
        )}
        <div className="ml-auto flex items-center gap-1">
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Play ${p.name}`}
            title="Play (replaces the queue)"
            disabled={!canPlay || p.song_count === 0}
            onClick={() => playlists.start(p, 'play', shuffle)}
            icon={<Play className="size-4" />}
          />
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Add ${p.name} to queue`}
            title="Add to queue"
            disabled={!canPlay || p.song_count === 0}
            onClick={() => playlists.start(p, 'queue', shuffle)}
            icon={<ListPlus className="size-4" />}
          />
          {isMine && (
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Delete ${p.name}`}
              title="Delete"
              onClick={onDelete}
              className="hover:text-danger"
              icon={<Trash2 className="size-4" />}
            />
          )}
        </div>
      </div>
      {isOpen && (
        <div className="border-t border-border px-3 py-2">
          {!open ? (
            <div className="flex justify-center py-3">
              <Spinner />
            </div>
          ) : open.songs.length === 0 ? (
            <p className="py-2 text-sm text-muted">
              {isMine ? 'No songs yet. Save songs from Now Playing or the Search tab.' : 'No songs yet.'}
            </p>
          ) : (
            <ol className="divide-y divide-border/60" data-testid="playlist-songs">
              {open.songs.map((s) => (
                <li key={s.id} data-testid="playlist-song" className="flex items-center gap-3 py-1.5">
                  <SongThumb src={s.thumbnail} className="size-8" />
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm">{s.title}</p>
                    <p className="truncate text-xs text-muted">{s.uploader || 'Unknown artist'}</p>
                  </div>
                  <span className="text-xs tabular-nums text-muted">{formatDuration(s.duration)}</span>
                  {isMine && (
                    <button
                      type="button"
                      aria-label={`Remove ${s.title}`}
                      onClick={() => playlists.removeSong(p.id, s.id)}
                      className="flex size-8 items-center justify-center rounded-lg text-muted hover:bg-surface-2 hover:text-danger"
                    >
                      <X className="size-4" />
                    </button>
                  )}
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </li>
  );
}

import {
  MUSIC_HISTORY_TEXTS as H,
  MUSIC_STATUS_POLL_MS,
  type MusicHistoryEntry,
  type SearchResult,
} from '@guildhall/common';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { History, RotateCcw } from 'lucide-react';
import { useDeferredValue, useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import * as api from './api.ts';
import { formatDuration } from './playback-clock.ts';
import { SaveToPlaylist } from './SaveToPlaylist.tsx';
import { PlatformBadge, SongThumb } from './SongBits.tsx';
import { type PlaylistsState, songInfoOf } from './usePlaylists.ts';

const inputClass =
  'h-10 w-full min-w-0 rounded-lg border border-border bg-bg/60 px-3 text-sm text-text placeholder:text-muted/70 focus:border-brand focus:outline-none';

/**
 * The last 200 songs played on the server (issue 48), newest first, with who asked for them and when;
 * searchable by title or artist; "Play again" queues one, "Save" adds it to a playlist. Asked once the tab
 * is open, again whenever another song starts, and every 10 s while open.
 */
export function HistoryTab({
  guildId,
  currentEntryId,
  isActive,
  canPlay,
  onPlay,
  playlists,
}: {
  guildId: string | null;
  currentEntryId: string | null;
  isActive: boolean;
  canPlay: boolean;
  onPlay: (song: Pick<SearchResult, 'url' | 'title'>) => void;
  playlists: PlaylistsState;
}) {
  const [query, setQuery] = useState('');
  const q = useDeferredValue(query.trim());
  const history = useQuery({
    queryKey: ['music', 'history', guildId, q, currentEntryId],
    queryFn: () => api.fetchHistory(guildId ?? '', q),
    enabled: isActive && !!guildId,
    placeholderData: keepPreviousData,
    // A song is recorded once its audio starts, a moment after the status names it: asked again while open.
    refetchInterval: isActive ? MUSIC_STATUS_POLL_MS : false,
  });
  const entries = history.data ?? [];
  return (
    <div className="space-y-4">
      <search>
        <input
          type="search"
          aria-label={H.searchLabel}
          placeholder={H.searchPlaceholder}
          value={query}
          maxLength={100}
          onChange={(e) => setQuery(e.target.value)}
          className={inputClass}
          data-testid="history-search"
        />
      </search>
      {history.isError ? (
        <p className="py-6 text-center text-sm text-danger-text" role="alert">
          {api.errorText(history.error, H.loadFailed)}
        </p>
      ) : history.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner className="size-5" />
        </div>
      ) : entries.length === 0 ? (
        <div className="flex flex-col items-center gap-2 py-10 text-center text-sm text-muted" role="status">
          <History className="size-8 text-muted/60" />
          {q ? H.noMatch : H.empty}
        </div>
      ) : (
        <ol data-testid="history" className="space-y-2">
          {entries.map((e) => (
            <HistoryRow key={e.id} entry={e} canPlay={canPlay} onPlay={onPlay} playlists={playlists} />
          ))}
        </ol>
      )}
    </div>
  );
}

function HistoryRow({
  entry: e,
  canPlay,
  onPlay,
  playlists,
}: {
  entry: MusicHistoryEntry;
  canPlay: boolean;
  onPlay: (song: Pick<SearchResult, 'url' | 'title'>) => void;
  playlists: PlaylistsState;
}) {
  const at = new Date(e.playedAt);
  return (
    <li
      data-testid="history-item"
      data-title={e.title}
      className="flex items-center gap-2 rounded-xl border border-border bg-bg/50 p-1.5 sm:gap-3 sm:p-2"
    >
      <SongThumb src={e.thumbnail} className="size-10 sm:size-12" />
      <div className="min-w-0 flex-1">
        <p className="line-clamp-2 text-sm font-medium break-words sm:truncate" title={e.title}>
          {e.title}
        </p>
        <p className="truncate text-xs text-muted">
          {e.uploader && e.uploader !== 'Library' ? `${e.uploader} · ` : ''}
          {e.requestedBy.displayName} ·{' '}
          <time dateTime={e.playedAt} title={at.toLocaleString()}>
            {playedWhen(at)}
          </time>
          <span className="hidden tabular-nums sm:inline"> · {formatDuration(e.duration)}</span>
        </p>
      </div>
      <span className="hidden sm:inline-flex">
        <PlatformBadge platform={e.platform} />
      </span>
      <SaveToPlaylist song={songInfoOf(e)} playlists={playlists} disabled={!canPlay} />
      <Button
        size="sm"
        variant="secondary"
        disabled={!canPlay}
        onClick={() => onPlay(e)}
        aria-label={`${H.playAgain}: ${e.title}`}
        data-testid="history-play-again"
        icon={<RotateCcw className="size-4" />}
      >
        <span className="sr-only whitespace-nowrap sm:not-sr-only">{H.playAgain}</span>
      </Button>
    </li>
  );
}

/** "14:05" today, else "3 Nov, 14:05". */
function playedWhen(at: Date): string {
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  if (at.toDateString() === new Date().toDateString()) return time;
  return `${at.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })}, ${time}`;
}

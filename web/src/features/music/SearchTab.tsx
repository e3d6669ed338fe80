import {
  MUSIC_PLATFORM_LABELS,
  MUSIC_PLATFORMS,
  type MusicPlatform,
  type SearchResult,
  MUSIC_TEXTS as T,
} from '@guildhall/common';
import { ListPlus, Play, Search } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import * as api from './api.ts';
import { formatDuration } from './playback-clock.ts';
import { SaveToPlaylist } from './SaveToPlaylist.tsx';
import { PlatformBadge, SongThumb } from './SongBits.tsx';
import { type PlaylistsState, songInfoOf } from './usePlaylists.ts';

const inputClass =
  'h-10 w-full min-w-0 rounded-lg border border-border bg-bg/60 px-3 text-sm text-text placeholder:text-muted/70 focus:border-brand focus:outline-none';

/**
 * A pasted song or list link (a YouTube video or playlist, a SoundCloud track or set, a Spotify track, album,
 * playlist or artist, `library:<id>`) is played or queued as it is instead of searched for; the server says
 * what it is (or that it is not one).
 */
export const isSongLink = (text: string) => /^(https?:\/\/\S+|library:\S+|spotify:\S+)$/i.test(text);

/** Search a platform (YouTube, SoundCloud or the file library) and play or queue a result, or a pasted link. */
export function SearchTab({
  canSearch,
  canPlay,
  isSomethingPlaying,
  onPlay,
  playlists,
  showError,
}: {
  canSearch: boolean;
  canPlay: boolean;
  isSomethingPlaying: boolean;
  onPlay: (song: Pick<SearchResult, 'url' | 'title'>) => void;
  playlists: PlaylistsState;
  showError: (text: string, detail?: string) => void;
}) {
  const [query, setQuery] = useState('');
  const [platform, setPlatform] = useState<MusicPlatform>('youtube');
  const [results, setResults] = useState<SearchResult[] | null>(null);
  const [isSearching, setSearching] = useState(false);

  const run = async () => {
    const text = query.trim();
    // Blank search text clears the results (portal-tools §5).
    if (!text) return setResults(null);
    if (isSongLink(text)) {
      setResults(null);
      // The answer's message (e.g. "Queued the first 100 of 120 tracks…") shows in the banner.
      return onPlay({ url: text, title: text });
    }
    setSearching(true);
    try {
      setResults(await api.search(text, platform));
    } catch (e) {
      showError(T.searchFailed, api.errorText(e, T.searchFailed));
    } finally {
      setSearching(false);
    }
  };

  return (
    <div className="space-y-4">
      <search>
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            void run();
          }}
        >
          <fieldset className="flex flex-wrap gap-1.5">
            <legend className="sr-only">Platform</legend>
            {MUSIC_PLATFORMS.map((p) => (
              <label
                key={p}
                className={cn(
                  'cursor-pointer rounded-lg border px-3 py-1.5 text-sm font-medium transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand',
                  platform === p
                    ? 'border-brand/50 bg-brand/15 text-brand-text'
                    : 'border-border text-muted hover:text-text',
                )}
              >
                <input
                  type="radio"
                  name="music-platform"
                  value={p}
                  checked={platform === p}
                  onChange={() => setPlatform(p)}
                  className="sr-only"
                />
                {MUSIC_PLATFORM_LABELS[p]}
              </label>
            ))}
          </fieldset>
          <div className="flex gap-2">
            <input
              type="search"
              aria-label="Search songs"
              placeholder={`Search ${MUSIC_PLATFORM_LABELS[platform]} or paste a link...`}
              value={query}
              onChange={(e) => {
                setQuery(e.target.value);
                if (!e.target.value.trim()) setResults(null);
              }}
              className={inputClass}
            />
            {isSongLink(query.trim()) ? (
              <Button type="submit" disabled={!canPlay} icon={<Play className="size-4" />}>
                <span className="sr-only whitespace-nowrap sm:not-sr-only">
                  {isSomethingPlaying ? 'Queue link' : 'Play link'}
                </span>
              </Button>
            ) : (
              <Button
                type="submit"
                disabled={isSearching || !canSearch}
                icon={isSearching ? <Spinner className="size-4" /> : <Search className="size-4" />}
              >
                <span className="sr-only sm:not-sr-only">Search</span>
              </Button>
            )}
          </div>
        </form>
      </search>

      {results && results.length === 0 && (
        <p className="py-6 text-center text-sm text-muted">
          No results on {MUSIC_PLATFORM_LABELS[platform]}.
        </p>
      )}
      {results && results.length > 0 && (
        <ul data-testid="search-results" className="space-y-2">
          {results.map((r) => (
            <li
              key={`${r.platform}:${r.id}`}
              data-testid="search-result"
              data-title={r.title}
              className="flex items-center gap-2 rounded-xl border border-border bg-bg/50 p-1.5 sm:gap-3 sm:p-2"
            >
              <SongThumb src={r.thumbnail} className="size-10 sm:size-12" />
              <div className="min-w-0 flex-1">
                <p className="line-clamp-2 text-sm font-medium break-words sm:truncate" title={r.title}>
                  {r.title}
                </p>
                <p className="flex items-center gap-2 truncate text-xs text-muted">
                  <span className="truncate">{r.uploader || 'Unknown artist'}</span>
                  <span className="tabular-nums">{formatDuration(r.duration)}</span>
                </p>
              </div>
              <span className="hidden sm:inline-flex">
                <PlatformBadge platform={r.platform} />
              </span>
              <SaveToPlaylist song={songInfoOf(r)} playlists={playlists} disabled={!canPlay} />
              <Button
                size="sm"
                variant={isSomethingPlaying ? 'secondary' : 'primary'}
                disabled={!canPlay}
                onClick={() => onPlay(r)}
                aria-label={`${isSomethingPlaying ? 'Add to queue' : 'Play'}: ${r.title}`}
                icon={isSomethingPlaying ? <ListPlus className="size-4" /> : <Play className="size-4" />}
              >
                <span className="sr-only sm:not-sr-only">{isSomethingPlaying ? 'Queue' : 'Play'}</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

import { currentLineIndex, type LyricsLine, MUSIC_LYRICS_TEXTS as T } from '@guildhall/common';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import * as api from './api.ts';
import type { StatusEntry } from './useMusicStatus.ts';
import { usePlaybackPosition } from './usePlaybackPosition.ts';

/**
 * The playing song's lyrics (issue 48): synced lines follow the scrubber (the current one highlighted and
 * kept in view), plain lyrics as text, or why there are none. Asked only once the tab has been opened, once
 * per song (the server caches per track); "unavailable" offers a retry.
 */
export function LyricsTab({
  guildId,
  entry,
  isActive,
}: {
  guildId: string | null;
  entry: StatusEntry | null;
  isActive: boolean;
}) {
  const song = entry?.status.currentSong ?? null;
  const lyrics = useQuery({
    queryKey: ['music', 'lyrics', guildId, song?.entryId ?? null],
    queryFn: () => api.fetchLyrics(guildId ?? ''),
    enabled: isActive && !!guildId && !!song,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  if (!song) return <Note>{T.nothingPlaying}</Note>;
  if (lyrics.isError) return <Unavailable onRetry={() => void lyrics.refetch()} />;
  const data = lyrics.data;
  if (!data || data.entryId !== song.entryId) return <Note>{T.loading}</Note>;
  switch (data.state) {
    case 'synced':
      return <SyncedLines lines={data.lines} entry={entry} />;
    case 'plain':
      return <LinesBox lines={data.lines} current={-1} label={T.tab} />;
    case 'instrumental':
      return <Note>{T.instrumental}</Note>;
    case 'unavailable':
      return <Unavailable onRetry={() => void lyrics.refetch()} />;
    case 'nothing_playing':
      return <Note>{T.nothingPlaying}</Note>;
    default:
      return <Note>{T.notFound}</Note>;
  }
}

function SyncedLines({ lines, entry }: { lines: LyricsLine[]; entry: StatusEntry | null }) {
  const position = usePlaybackPosition(entry);
  return <LinesBox lines={lines} current={currentLineIndex(lines, position)} label={T.tab} />;
}

/** A focusable, scrollable list (keyboard users scroll it with the arrow keys); the current line centred. */
function LinesBox({ lines, current, label }: { lines: LyricsLine[]; current: number; label: string }) {
  const box = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const list = box.current;
    const line = current >= 0 ? list?.children.item(current) : null;
    if (!list || !(line instanceof HTMLElement)) return;
    list.scrollTop = line.offsetTop - list.clientHeight / 2 + line.offsetHeight / 2;
  }, [current]);
  return (
    <div>
      <ol
        ref={box}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling list must be reachable by keyboard to scroll it
        tabIndex={0}
        aria-label={label}
        data-testid="lyrics-lines"
        className="relative max-h-80 space-y-1 overflow-y-auto rounded-lg p-2 text-sm focus:outline-2 focus:outline-brand"
      >
        {lines.map((l, i) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: lines repeat (choruses) and never reorder
            key={i}
            aria-current={i === current ? 'true' : undefined}
            className={cn(
              'min-h-5 rounded px-2 py-0.5 transition-colors',
              i === current ? 'bg-brand/20 font-semibold text-fg' : 'text-muted',
            )}
          >
            {l.text}
          </li>
        ))}
      </ol>
      <p className="mt-2 text-xs text-muted">{T.credit}</p>
    </div>
  );
}

function Unavailable({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <Note>{T.unavailable}</Note>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

function Note({ children }: { children: string }) {
  return (
    <p className="py-6 text-center text-sm text-muted" role="status">
      {children}
    </p>
  );
}

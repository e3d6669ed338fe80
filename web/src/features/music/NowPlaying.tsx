import {
  autoplayMissText,
  MUSIC_PLATFORM_LABELS,
  type PlaybackStatus,
  MUSIC_TEXTS as T,
} from '@guildhall/common';
import { Music2 } from 'lucide-react';
import { useState } from 'react';
import { Avatar } from '../../ui/Avatar.tsx';
import { Card, CardTitle } from '../../ui/Card.tsx';
import { Controls } from './Controls.tsx';
import { PlaybackSettings } from './PlaybackSettings.tsx';
import { SaveToPlaylist } from './SaveToPlaylist.tsx';
import { Scrubber } from './Scrubber.tsx';
import { AutoplayBadge, PlatformBadge, SongThumb } from './SongBits.tsx';
import type { useMusicActions } from './useMusicActions.ts';
import type { StatusEntry } from './useMusicStatus.ts';
import { usePlaybackPosition } from './usePlaybackPosition.ts';
import { type PlaylistsState, songInfoOf } from './usePlaylists.ts';

function stateText(status: PlaybackStatus | null): string {
  if (status?.state === 'playing') return T.playing;
  if (status?.state === 'paused') return T.paused;
  return T.stopped;
}

/** The Now Playing card: the song, who asked for it, the scrubber and the controls (portal-tools §2). */
export function NowPlaying({
  entry,
  canControl,
  actions,
  playlists,
}: {
  entry: StatusEntry | null;
  canControl: boolean;
  actions: ReturnType<typeof useMusicActions>;
  playlists: PlaylistsState;
}) {
  const status = entry?.status ?? null;
  const song = status?.currentSong ?? null;
  const position = usePlaybackPosition(entry);
  const [isSeeking, setSeeking] = useState(false);
  const disabled = !canControl || !song;

  return (
    <Card data-testid="now-playing" className="space-y-5">
      <CardTitle
        icon={<Music2 className="size-4" />}
        action={
          <span
            data-testid="playback-state"
            data-state={isSeeking ? 'seeking' : (status?.state ?? 'stopped')}
            className="text-sm font-medium text-muted"
          >
            {isSeeking ? T.seeking : stateText(status)}
          </span>
        }
      >
        Now Playing
      </CardTitle>
      {song ? (
        <div className="flex gap-4">
          <SongThumb src={song.thumbnail} className="size-16 sm:size-24" />
          <div className="min-w-0 flex-1 space-y-1.5">
            <p
              data-testid="now-title"
              className="line-clamp-2 font-semibold break-words sm:text-lg"
              title={song.title}
            >
              {song.title}
            </p>
            <p className="flex min-w-0 items-center gap-2 text-sm text-muted">
              {/* A library file has no artist: its badge says Library, once. */}
              {song.uploader !== MUSIC_PLATFORM_LABELS[song.platform] && (
                <span data-testid="now-uploader" className="truncate">
                  {song.uploader || 'Unknown artist'}
                </span>
              )}
              <PlatformBadge platform={song.platform} />
              {song.autoplay && <AutoplayBadge />}
            </p>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="flex min-w-0 items-center gap-2 text-sm text-muted" data-testid="now-requester">
                <Avatar
                  src={song.requestedBy.avatar ?? undefined}
                  name={song.requestedBy.displayName}
                  className="size-6 text-xs"
                />
                <span className="truncate">
                  Requested by <span className="text-text">{song.requestedBy.displayName}</span>
                </span>
              </p>
              <SaveToPlaylist song={songInfoOf(song)} playlists={playlists} disabled={!canControl} />
            </div>
          </div>
        </div>
      ) : (
        <div className="flex items-center gap-4 text-muted">
          <SongThumb src={null} className="size-20 sm:size-24" />
          <NothingPlaying status={status} />
        </div>
      )}
      <Scrubber
        position={position}
        duration={song?.duration ?? 0}
        disabled={disabled}
        onSeekingChange={setSeeking}
        onSeek={actions.seek}
        settledKey={entry}
      />
      <Controls
        isPaused={status?.state === 'paused'}
        isPlaying={status?.state === 'playing'}
        disabled={disabled}
        hasQueue={(status?.queue.length ?? 0) > 0}
        onRestart={() => actions.control('restart')}
        onTogglePause={() => actions.control(status?.state === 'paused' ? 'resume' : 'pause')}
        onSkip={actions.skip}
        onStop={() => actions.control('stop')}
        onClearAll={actions.clearAll}
        onClearQueue={actions.clearQueue}
      />
      {status && <PlaybackSettings status={status} disabled={!canControl} actions={actions} />}
    </Card>
  );
}

/**
 * Why nothing plays: the bot offline or reconnecting, the queue ended and autoplay added nothing (and why,
 * issue 48), or simply nothing started yet.
 */
export function NothingPlaying({ status }: { status: PlaybackStatus | null }) {
  if (!status?.connected) {
    return (
      <p className="text-sm">
        {status?.botState === 'reconnecting'
          ? 'The music bot lost its connection to Discord and is reconnecting.'
          : 'The music bot is offline.'}
      </p>
    );
  }
  return (
    <p className="text-sm" data-testid="nothing-playing">
      {status.autoplayMiss ? `${autoplayMissText(status.autoplayMiss)} ` : 'Nothing is playing. '}
      Search for a song or start a playlist.
    </p>
  );
}

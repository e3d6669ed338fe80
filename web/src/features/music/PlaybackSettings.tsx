import {
  MUSIC_EQ_DEBOUNCE_MS,
  MUSIC_LOOP_LABELS,
  MUSIC_LOOP_MODES,
  MUSIC_VOLUME_MAX,
  MUSIC_VOLUME_MIN,
  type PlaybackStatus,
} from '@guildhall/common';
import { Repeat, Repeat1, Shuffle, Volume1, Volume2, VolumeX } from 'lucide-react';
import type { CSSProperties } from 'react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { cn } from '../../ui/cn.ts';
import { createDebouncer } from './debounce.ts';
import { rangeClass } from './range.ts';
import type { useMusicActions } from './useMusicActions.ts';

/**
 * Volume (0–200 %, sent once 300 ms after the last move), loop (off → song → queue), shuffle, loudness
 * normalisation, and the skip votes: who voted and how many are needed (issue 27).
 */
export function PlaybackSettings({
  status,
  disabled,
  actions,
}: {
  status: PlaybackStatus;
  disabled: boolean;
  actions: ReturnType<typeof useMusicActions>;
}) {
  const [volume, setVolume] = useState(status.volume);
  const latest = useRef(actions);
  latest.current = actions;
  const sender = useMemo(
    () => createDebouncer<number>(MUSIC_EQ_DEBOUNCE_MS, (v) => latest.current.setVolume(v)),
    [],
  );
  // Follow the server (another member's change), except while a value of ours waits to be sent.
  useEffect(() => {
    if (!sender.isPending()) setVolume(status.volume);
  }, [status.volume, sender]);
  const nextLoop = MUSIC_LOOP_MODES[(MUSIC_LOOP_MODES.indexOf(status.loop) + 1) % MUSIC_LOOP_MODES.length];
  const VolumeIcon = volume === 0 ? VolumeX : volume < 100 ? Volume1 : Volume2;
  const votes = status.skipVotes;
  return (
    <div className="space-y-3 border-t border-border pt-4" data-testid="playback-settings">
      <div className="flex flex-wrap items-center gap-3">
        <label className="flex min-w-48 flex-1 items-center gap-2 text-sm">
          <VolumeIcon className="size-4 shrink-0 text-muted" aria-hidden />
          <span className="sr-only">Volume</span>
          <input
            type="range"
            data-testid="volume"
            aria-label="Volume"
            aria-valuetext={`${volume} %`}
            min={MUSIC_VOLUME_MIN}
            max={MUSIC_VOLUME_MAX}
            step={5}
            value={volume}
            disabled={disabled}
            style={{ '--pct': `${(volume / MUSIC_VOLUME_MAX) * 100}%` } as CSSProperties}
            onChange={(e) => {
              const v = Math.round(Number(e.target.value));
              setVolume(v);
              sender.push(v);
            }}
            className={rangeClass()}
          />
          <span
            className="w-12 shrink-0 text-right text-xs tabular-nums text-muted"
            data-testid="volume-value"
          >
            {volume} %
          </span>
        </label>
        <div className="flex items-center gap-2">
          <button
            type="button"
            data-testid="loop"
            data-mode={status.loop}
            aria-label={`${MUSIC_LOOP_LABELS[status.loop]} (change to ${MUSIC_LOOP_LABELS[nextLoop ?? 'off'].toLowerCase()})`}
            title={MUSIC_LOOP_LABELS[status.loop]}
            aria-pressed={status.loop !== 'off'}
            disabled={disabled}
            onClick={() => actions.setLoop(nextLoop ?? 'off')}
            className={toggleClass(status.loop !== 'off')}
          >
            {status.loop === 'track' ? <Repeat1 className="size-4" /> : <Repeat className="size-4" />}
          </button>
          <button
            type="button"
            data-testid="shuffle"
            aria-label="Shuffle the queue"
            title="Shuffle the queue"
            disabled={disabled || status.queue.length < 2}
            onClick={actions.shuffle}
            className={toggleClass(false)}
          >
            <Shuffle className="size-4" />
          </button>
          <label
            className="flex items-center gap-2 text-sm"
            title="Plays every song at the same loudness (EBU R128)"
          >
            <input
              type="checkbox"
              data-testid="normalize"
              className="accent-brand"
              checked={status.normalize}
              disabled={disabled}
              onChange={(e) => actions.setNormalize(e.target.checked)}
            />
            Even loudness
          </label>
        </div>
      </div>
      {votes.voters.length > 0 && (
        <p className="text-sm text-muted" data-testid="skip-votes" aria-live="polite">
          Skip votes: <span className="text-text">{votes.voters.length}</span> of {votes.needed} needed (
          {votes.voters.map((v) => v.displayName).join(', ')})
        </p>
      )}
    </div>
  );
}

function toggleClass(on: boolean): string {
  return cn(
    'inline-flex size-9 items-center justify-center rounded-full border transition-colors disabled:cursor-not-allowed disabled:opacity-40',
    on
      ? 'border-brand bg-brand/15 text-brand-text'
      : 'border-border bg-surface-2 text-text hover:border-muted/60',
  );
}

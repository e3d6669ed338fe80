import { ListX, Pause, Play, RotateCcw, SkipForward, Square, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';

/** Restart, play/pause, skip, stop, clear all, clear queue (portal-tools §2). */
export function Controls({
  isPaused,
  isPlaying,
  disabled,
  hasQueue,
  onRestart,
  onTogglePause,
  onSkip,
  onStop,
  onClearAll,
  onClearQueue,
}: {
  isPaused: boolean;
  /** Something is playing (not paused, not stopped): the button offers Pause; otherwise Play. */
  isPlaying: boolean;
  disabled: boolean;
  hasQueue: boolean;
  onRestart: () => void;
  onTogglePause: () => void;
  onSkip: () => void;
  onStop: () => void;
  onClearAll: () => void;
  onClearQueue: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center justify-center gap-2 sm:justify-between">
      <div className="flex items-center gap-2">
        <RoundButton label="Restart" onClick={onRestart} disabled={disabled}>
          <RotateCcw className="size-4" />
        </RoundButton>
        <RoundButton
          label={isPlaying ? 'Pause' : isPaused ? 'Resume' : 'Play'}
          onClick={onTogglePause}
          disabled={disabled}
          primary
        >
          {isPlaying ? <Pause className="size-5" /> : <Play className="size-5 translate-x-px" />}
        </RoundButton>
        <RoundButton label="Skip" onClick={onSkip} disabled={disabled}>
          <SkipForward className="size-4" />
        </RoundButton>
        <RoundButton label="Stop" onClick={onStop} disabled={disabled}>
          <Square className="size-4" />
        </RoundButton>
      </div>
      <div className="flex items-center gap-2">
        <Button
          variant="danger"
          size="sm"
          onClick={onClearAll}
          disabled={disabled}
          icon={<Trash2 className="size-4" />}
        >
          Clear all
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onClick={onClearQueue}
          disabled={disabled || !hasQueue}
          icon={<ListX className="size-4" />}
        >
          Clear queue
        </Button>
      </div>
    </div>
  );
}

function RoundButton({
  label,
  onClick,
  disabled,
  primary,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled: boolean;
  primary?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      disabled={disabled}
      className={cn(
        'inline-flex items-center justify-center rounded-full transition-colors disabled:cursor-not-allowed disabled:opacity-40',
        primary
          ? 'size-12 bg-brand text-white shadow-sm shadow-brand/30 hover:bg-brand-hover'
          : 'size-10 border border-border bg-surface-2 text-text hover:border-muted/60',
      )}
    >
      {children}
    </button>
  );
}

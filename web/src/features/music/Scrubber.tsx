import { type CSSProperties, useEffect, useRef, useState } from 'react';
import { formatDuration, formatTime, percentOf, seekTimeForPercent } from './playback-clock.ts';
import { rangeClass } from './range.ts';

const SEEK_KEYS = new Set([
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  'Home',
  'End',
  'PageUp',
  'PageDown',
]);

/**
 * The scrubber (portal-tools §2, §4): elapsed/total, dragged with mouse, touch or keys. While dragging
 * it reports "Seeking"; the seek is sent once, on release (pointer up, or key up for the keyboard).
 */
export function Scrubber({
  position,
  duration,
  disabled,
  onSeekingChange,
  onSeek,
  settledKey,
}: {
  position: number;
  duration: number;
  disabled: boolean;
  onSeekingChange: (seeking: boolean) => void;
  onSeek: (time: number) => void;
  /** Changes when a new status arrives: the released position then gives way to the server's. */
  settledKey: unknown;
}) {
  const [draft, setDraft] = useState<number | null>(null);
  const dragging = useRef(false);
  const draftRef = useRef<number | null>(null);
  draftRef.current = draft;

  // After a release the draft is shown until the next status, so the thumb does not jump back meanwhile.
  const released = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: settledKey is the trigger, on purpose.
  useEffect(() => {
    if (released.current) {
      released.current = false;
      setDraft(null);
    }
  }, [settledKey]);

  const commit = () => {
    const value = draftRef.current;
    if (!dragging.current || value === null) return;
    dragging.current = false;
    released.current = true;
    onSeekingChange(false);
    onSeek(seekTimeForPercent(percentOf(value, duration), duration));
  };
  const begin = () => {
    if (dragging.current) return;
    dragging.current = true;
    onSeekingChange(true);
  };

  const shown = draft ?? position;
  const canSeek = !disabled && duration > 0;
  return (
    <div className="space-y-1.5">
      <input
        type="range"
        aria-label="Seek"
        data-testid="scrubber"
        min={0}
        max={Math.max(duration, 1)}
        step={1}
        value={Math.min(shown, Math.max(duration, 1))}
        aria-valuetext={`${formatTime(shown)} of ${formatTime(duration)}`}
        disabled={!canSeek}
        style={{ '--pct': `${percentOf(shown, duration)}%` } as CSSProperties}
        className={rangeClass()}
        onPointerDown={(e) => {
          begin();
          setDraft(Number(e.currentTarget.value));
          // The release may happen outside the bar: listen on the window.
          window.addEventListener('pointerup', commit, { once: true });
          window.addEventListener('pointercancel', commit, { once: true });
        }}
        onKeyDown={(e) => {
          if (SEEK_KEYS.has(e.key)) begin();
        }}
        onKeyUp={(e) => {
          if (SEEK_KEYS.has(e.key)) commit();
        }}
        onChange={(e) => {
          begin();
          setDraft(Number(e.currentTarget.value));
        }}
        onBlur={commit}
      />
      <div className="flex justify-between text-xs tabular-nums text-muted">
        <span data-testid="elapsed">{formatTime(shown)}</span>
        <span data-testid="duration">{formatDuration(duration)}</span>
      </div>
    </div>
  );
}

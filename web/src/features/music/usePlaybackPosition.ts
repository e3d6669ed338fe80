import { useEffect, useState } from 'react';
import { anchorFromStatus, positionAt } from './playback-clock.ts';
import type { StatusEntry } from './useMusicStatus.ts';

const TICK_MS = 250;

/** The song position now, re-read four times a second while the song runs (see playback-clock.ts). */
export function usePlaybackPosition(entry: StatusEntry | null): number {
  const anchor = entry ? anchorFromStatus(entry.status, entry.receivedAt) : null;
  const running = anchor?.running ?? false;
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    setNow(performance.now());
    if (!running) return;
    const t = setInterval(() => setNow(performance.now()), TICK_MS);
    return () => clearInterval(t);
  }, [running]);
  return anchor ? positionAt(anchor, Math.max(now, anchor.receivedAt)) : 0;
}

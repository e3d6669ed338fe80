import type { PlaybackStatus } from '@guildhall/common';

/**
 * Where the song is between two status updates. The server reports the position at the moment it
 * answered and how fast it moves (song seconds per real second: 1.25 under nightcore, 0.8 slowed);
 * the panel anchors that to the moment it received it and extrapolates on its own clock, so the
 * scrubber moves smoothly and each push or poll corrects it. Receipt time is used rather than the
 * server's clock because the two clocks may differ by seconds; the network delay it ignores is ms.
 */
export type PlaybackAnchor = {
  /** Song position in seconds when received. */
  elapsed: number;
  /** Song seconds per real second. */
  rate: number;
  /** Local monotonic time (ms, `performance.now()`) of receipt. */
  receivedAt: number;
  /** True while the song advances (playing and not paused). */
  running: boolean;
  /** Song length in seconds; 0 when unknown (a stream): no upper clamp then. */
  duration: number;
};

export function anchorFromStatus(status: PlaybackStatus, receivedAt: number): PlaybackAnchor {
  return {
    elapsed: status.elapsedTime,
    rate: status.playbackRate,
    receivedAt,
    running: status.state === 'playing',
    duration: status.currentSong?.duration ?? 0,
  };
}

/** The position in seconds at local time `now`, never past the song's end nor before 0. */
export function positionAt(anchor: PlaybackAnchor, now: number): number {
  const moved = anchor.running ? (Math.max(0, now - anchor.receivedAt) / 1000) * anchor.rate : 0;
  const position = Math.max(0, anchor.elapsed + moved);
  return anchor.duration > 0 ? Math.min(position, anchor.duration) : position;
}

/** The seek target in seconds for a scrubber percentage, clamped to 0–100 % (portal-tools §5). */
export function seekTimeForPercent(percent: number, duration: number): number {
  const clamped = Math.min(100, Math.max(0, Number.isFinite(percent) ? percent : 0));
  return Math.round((clamped / 100) * duration * 10) / 10;
}

/** Percentage of the song at `position` (0 for an unknown length). */
export function percentOf(position: number, duration: number): number {
  if (duration <= 0) return 0;
  return Math.min(100, Math.max(0, (position / duration) * 100));
}

/** m:ss, or h:mm:ss from an hour on. */
export function formatTime(seconds: number): string {
  const total = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** A song's length for lists: "–" when unknown (0: a live stream, or not measured yet). */
export function formatDuration(seconds: number): string {
  return seconds > 0 ? formatTime(seconds) : '–';
}

/**
 * Keeps the later of two statuses of the same guild (by the server's own clock), so a slow poll that
 * answers after a push cannot move the panel back in time.
 */
export function newerStatus(held: PlaybackStatus | undefined, next: PlaybackStatus): PlaybackStatus {
  if (!held || held.guildId !== next.guildId) return next;
  return Date.parse(next.serverTime) >= Date.parse(held.serverTime) ? next : held;
}

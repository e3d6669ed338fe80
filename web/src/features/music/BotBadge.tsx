import { type PlaybackStatus, MUSIC_TEXTS as T } from '@guildhall/common';
import { useEffect, useState } from 'react';
import { Badge } from '../../ui/Badge.tsx';

/**
 * The bot's honest state (portal-tools §2, issue 25): Offline; Reconnecting with how long, while the
 * gateway or the voice connection is down; or Online with Paused, Idle or the listener count.
 */
export function BotBadge({ status }: { status: PlaybackStatus | null }) {
  const since = status?.botState === 'reconnecting' ? status.botStateSince : null;
  const seconds = useSecondsSince(since);
  if (!status || status.botState === 'offline') {
    return (
      <Badge tone="danger" className="gap-1.5">
        <span data-testid="bot-badge" data-state="offline" className="contents">
          <span className="size-1.5 rounded-full bg-danger" />
          {T.offline}
        </span>
      </Badge>
    );
  }
  if (status.botState === 'reconnecting') {
    return (
      <Badge tone="warning" className="gap-1.5">
        <span data-testid="bot-badge" data-state="reconnecting" className="contents">
          <span className="size-1.5 animate-pulse rounded-full bg-warning" />
          {T.reconnecting}
          {seconds !== null && ` · ${seconds} s`}
        </span>
      </Badge>
    );
  }
  // Not in a voice channel counts as idle too: nobody can be listening. A pause is not idle.
  const detail =
    status.state === 'paused' && status.voiceChannel
      ? T.paused
      : status.idle || !status.voiceChannel
        ? T.idle
        : `${status.listeners} listener${status.listeners === 1 ? '' : 's'}`;
  return (
    <Badge tone="success" className="gap-1.5">
      <span data-testid="bot-badge" data-state="online" className="contents">
        <span className="size-1.5 rounded-full bg-success" />
        {T.online} · {detail}
      </span>
    </Badge>
  );
}

/** Whole seconds since an ISO time, ticking once a second; null without one. */
function useSecondsSince(iso: string | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!iso) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [iso]);
  if (!iso) return null;
  return Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
}

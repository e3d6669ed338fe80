import { type PlaybackStatus, MUSIC_TEXTS as T } from '@guildhall/common';
import { Badge } from '../../ui/Badge.tsx';

/** Online with the listener count (or "Idle"), or Offline (portal-tools §2). */
export function BotBadge({ status }: { status: PlaybackStatus | null }) {
  if (!status?.connected) {
    return (
      <Badge tone="danger" className="gap-1.5">
        <span data-testid="bot-badge" data-state="offline" className="contents">
          <span className="size-1.5 rounded-full bg-danger" />
          {T.offline}
        </span>
      </Badge>
    );
  }
  // Not in a voice channel counts as idle too: nobody can be listening.
  const detail =
    status.idle || !status.voiceChannel
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

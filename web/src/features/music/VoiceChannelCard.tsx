import type { PlaybackStatus } from '@guildhall/common';
import { Headphones, Volume2 } from 'lucide-react';
import { Card } from '../../ui/Card.tsx';

/** Which voice channel the bot is in and who listens, or how to get it to join. */
export function VoiceChannelCard({ status }: { status: PlaybackStatus | null }) {
  const channel = status?.voiceChannel ?? null;
  return (
    <Card data-testid="voice-channel" className="flex items-center gap-4 p-4 sm:p-4">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand/15 text-brand">
        <Volume2 className="size-5" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-xs uppercase tracking-wide text-muted">Voice channel</p>
        {channel ? (
          <p className="truncate font-semibold" data-testid="voice-channel-name">
            {channel.name}
          </p>
        ) : (
          <p className="text-sm text-muted">
            {status?.connected
              ? 'Not in a voice channel. Join one in Discord and play a song: the bot comes to you.'
              : 'The bot is offline.'}
          </p>
        )}
      </div>
      {channel && status && (
        <span className="flex shrink-0 items-center gap-1.5 text-sm text-muted" data-testid="listeners">
          <Headphones className="size-4" />
          {status.listeners}
        </span>
      )}
    </Card>
  );
}

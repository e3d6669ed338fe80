import { MUSIC_AUTOPLAY_REQUESTER, MUSIC_PLATFORM_LABELS, type MusicPlatform } from '@guildhall/common';
import { Music, Radio } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../../ui/Badge.tsx';
import { cn } from '../../ui/cn.ts';

const TONE = { youtube: 'danger', soundcloud: 'warning', library: 'brand' } as const;

export function PlatformBadge({ platform }: { platform: MusicPlatform }) {
  return (
    <Badge tone={TONE[platform]} className="shrink-0">
      <span data-testid="platform-badge">{MUSIC_PLATFORM_LABELS[platform]}</span>
    </Badge>
  );
}

/** Marks a song autoplay added when the queue ended (issue 48), not a member. */
export function AutoplayBadge() {
  return (
    <Badge tone="success" className="shrink-0">
      <span data-testid="autoplay-badge" className="inline-flex items-center gap-1">
        <Radio className="size-3" aria-hidden />
        {MUSIC_AUTOPLAY_REQUESTER}
      </span>
    </Badge>
  );
}

/** A song's cover, or a note icon when it has none or the image cannot load. */
export function SongThumb({ src, className }: { src: string | null; className?: string }) {
  const [failed, setFailed] = useState(false);
  const base = cn('shrink-0 rounded-lg bg-surface-2', className);
  if (!src || failed) {
    return (
      <span aria-hidden="true" className={cn(base, 'flex items-center justify-center text-brand/80')}>
        <Music className="size-1/2" />
      </span>
    );
  }
  return <img src={src} alt="" className={cn(base, 'object-cover')} onError={() => setFailed(true)} />;
}

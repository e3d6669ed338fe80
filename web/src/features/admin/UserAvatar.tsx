import { cn } from '../../ui/cn.ts';

const TONES = [
  'bg-brand/20 text-[#aab1ff]',
  'bg-success/20 text-[#6fd08f]',
  'bg-warning/20 text-[#f4c453]',
  'bg-danger/20 text-[#ff7b7e]',
];

/** An initial in a circle: no external image, so the list looks the same offline. */
export function UserAvatar({ id, username }: { id: string; username: string }) {
  const tone = TONES[Number(id.slice(-2)) % TONES.length || 0] ?? TONES[0];
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex size-9 shrink-0 items-center justify-center rounded-full text-sm font-semibold uppercase',
        tone,
      )}
    >
      {username.trim().charAt(0) || '?'}
    </span>
  );
}

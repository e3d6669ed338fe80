import { cn } from '../../ui/cn.ts';

const TONES = [
  'bg-brand/20 text-brand-text',
  'bg-success/20 text-success-text',
  'bg-warning/20 text-warning-text',
  'bg-danger/20 text-danger-text',
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

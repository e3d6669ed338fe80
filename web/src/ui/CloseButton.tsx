import { X } from 'lucide-react';
import { cn } from './cn.ts';

const SIZES = {
  sm: { box: 'size-6 rounded-md', icon: 'size-3.5' },
  md: { box: 'size-8 rounded-lg', icon: 'size-4' },
} as const;

/** The × that closes a dialog or dismisses a card or banner; `label` is what a screen reader announces. */
export function CloseButton({
  label,
  onClick,
  size = 'md',
  className,
}: {
  label: string;
  onClick: () => void;
  size?: keyof typeof SIZES;
  /** Overrides the neutral colours (e.g. on a danger banner). */
  className?: string;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      className={cn(
        'inline-flex shrink-0 items-center justify-center text-muted hover:bg-surface-2 hover:text-text',
        SIZES[size].box,
        className,
      )}
    >
      <X className={SIZES[size].icon} />
    </button>
  );
}

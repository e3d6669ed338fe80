import { roleColorHex } from '@guildhall/common';
import { cn } from './cn.ts';

/**
 * A Discord role's colour as a dot (a role without one: a ring). The role's name beside it stays in the
 * text colour: role colours are chosen for Discord's own background and are often unreadable on ours.
 */
export function RoleDot({ color, className }: { color: number; className?: string }) {
  const hex = roleColorHex(color);
  return (
    <span
      aria-hidden
      className={cn('inline-block size-3 shrink-0 rounded-full', !hex && 'border border-muted', className)}
      style={hex ? { background: hex } : undefined}
    />
  );
}

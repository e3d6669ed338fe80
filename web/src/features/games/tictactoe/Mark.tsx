import type { Mark } from '@guildhall/common';
import { Circle, X } from 'lucide-react';
import { cn } from '../../../ui/cn.ts';

/** X and O each have one colour everywhere on the screen, so a glance tells who is who. */
export const MARK_COLOR: Record<Mark, string> = { X: 'text-brand-text', O: 'text-warning-text' };

export function MarkIcon({ mark, className }: { mark: Mark; className?: string }) {
  const Icon = mark === 'X' ? X : Circle;
  return (
    <Icon aria-hidden className={cn(MARK_COLOR[mark], className)} strokeWidth={mark === 'X' ? 3 : 2.75} />
  );
}

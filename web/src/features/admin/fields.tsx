import { ACCESS_LEVELS, type AccessLevel, LEVEL_LABELS } from '@guildhall/common';
import type { ComponentProps, SelectHTMLAttributes } from 'react';
import { cn } from '../../ui/cn.ts';

export const inputClass =
  'h-10 w-full min-w-0 rounded-lg border border-border bg-bg px-3 text-sm outline-none placeholder:text-muted/60 focus:border-brand disabled:opacity-60';

export function TextInput({ className, ...rest }: ComponentProps<'input'>) {
  return <input className={cn(inputClass, className)} {...rest} />;
}

/** Access Level select: Viewer, User, Moderator, Admin. */
export function LevelSelect({
  value,
  onChange,
  className,
  ...rest
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> & {
  value: AccessLevel;
  onChange: (level: AccessLevel) => void;
}) {
  return (
    <select
      className={cn(inputClass, 'cursor-pointer', className)}
      value={value}
      onChange={(e) => onChange(e.target.value as AccessLevel)}
      {...rest}
    >
      {ACCESS_LEVELS.map((level) => (
        <option key={level} value={level}>
          {LEVEL_LABELS[level]}
        </option>
      ))}
    </select>
  );
}

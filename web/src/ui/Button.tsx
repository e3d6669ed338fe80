import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn.ts';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'success';
type Size = 'sm' | 'md' | 'lg';

const VARIANTS: Record<Variant, string> = {
  primary: 'bg-brand text-white hover:bg-brand-hover shadow-sm shadow-brand/20',
  secondary: 'bg-surface-2 text-text border border-border hover:border-muted/60 hover:bg-border/60',
  ghost: 'text-muted hover:text-text hover:bg-surface-2',
  danger: 'bg-danger/15 text-danger-text border border-danger/30 hover:bg-danger/25',
  success: 'bg-success/15 text-success-text border border-success/30 hover:bg-success/25',
};

const SIZES: Record<Size, string> = {
  sm: 'h-8 px-3 text-sm gap-1.5',
  md: 'h-10 px-4 text-sm gap-2',
  lg: 'h-12 px-6 text-base gap-2',
};

export const buttonClass = (variant: Variant = 'primary', size: Size = 'md', extra?: string) =>
  cn(
    'inline-flex items-center justify-center rounded-lg font-medium transition-colors cursor-pointer',
    'disabled:opacity-50 disabled:cursor-not-allowed disabled:pointer-events-none whitespace-nowrap',
    VARIANTS[variant],
    SIZES[size],
    extra,
  );

export type ButtonProps = ComponentProps<'button'> & {
  variant?: Variant;
  size?: Size;
  icon?: ReactNode;
};

export function Button({ variant, size, icon, className, children, type = 'button', ...rest }: ButtonProps) {
  return (
    <button type={type} className={buttonClass(variant, size, className)} {...rest}>
      {icon}
      {children}
    </button>
  );
}

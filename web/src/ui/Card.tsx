import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from './cn.ts';

export function Card({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={cn('min-w-0 rounded-2xl border border-border bg-surface/80 p-5 sm:p-6', className)}
      {...rest}
    />
  );
}

export function CardTitle({
  icon,
  children,
  action,
}: {
  icon?: ReactNode;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="mb-4 flex items-center justify-between gap-3">
      <h2 className="flex items-center gap-2 text-base font-semibold text-text">
        {icon && <span className="text-brand">{icon}</span>}
        {children}
      </h2>
      {action}
    </div>
  );
}

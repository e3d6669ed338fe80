import type { ReactNode } from 'react';
import { cn } from './cn.ts';

/** The content column every screen uses. */
export function Page({
  children,
  className,
  wide,
}: {
  children: ReactNode;
  className?: string;
  wide?: boolean;
}) {
  return (
    <main
      className={cn('mx-auto w-full px-4 py-8 sm:px-6 sm:py-10', wide ? 'max-w-7xl' : 'max-w-5xl', className)}
    >
      {children}
    </main>
  );
}

import { useState } from 'react';
import { cn } from './cn.ts';

/** A round avatar; falls back to the name's initial when the image cannot load (offline CDN, blocked). */
export function Avatar({ src, name, className }: { src?: string; name: string; className?: string }) {
  const [failed, setFailed] = useState(false);
  const base = cn('shrink-0 rounded-full bg-surface-2', className);
  if (!src || failed) {
    return (
      <span
        aria-hidden="true"
        className={cn(base, 'flex items-center justify-center bg-brand/25 font-semibold text-brand-text')}
      >
        {name.slice(0, 1).toUpperCase()}
      </span>
    );
  }
  return <img src={src} alt="" className={cn(base, 'object-cover')} onError={() => setFailed(true)} />;
}

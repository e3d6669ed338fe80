import { COPY_CONFIRMATION_MS } from '@guildhall/common';
import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { cn } from './cn.ts';

/** Copies a value; shows a checkmark for 2 s (portal-core §9). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(t);
  }, [copied]);
  return (
    <button
      type="button"
      aria-label={copied ? `${label} copied` : `Copy ${label}`}
      title={copied ? 'Copied!' : `Copy ${label}`}
      data-copied={copied}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
        } catch {
          setCopied(false);
        }
      }}
      className={cn(
        'inline-flex size-8 shrink-0 items-center justify-center rounded-lg border border-border transition-colors',
        copied
          ? 'border-success/40 bg-success/15 text-success'
          : 'text-muted hover:bg-surface-2 hover:text-text',
      )}
    >
      {copied ? <Check className="size-4" /> : <Copy className="size-4" />}
    </button>
  );
}

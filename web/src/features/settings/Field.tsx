import type { ReactNode } from 'react';
import { CopyButton } from '../../ui/CopyButton.tsx';

/** One labelled value of a settings card, with an optional copy button. */
export function Field({ label, value, copy }: { label: string; value: ReactNode; copy?: string }) {
  return (
    <div className="flex items-center justify-between gap-3 border-b border-border/60 py-3 last:border-0">
      <div className="min-w-0 flex-1">
        <dt className="text-xs uppercase tracking-wide text-muted">{label}</dt>
        <dd className="mt-0.5 truncate font-medium">{value}</dd>
      </div>
      {copy && <CopyButton value={copy} label={label} />}
    </div>
  );
}

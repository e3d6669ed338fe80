import type { ReactNode } from 'react';
import { CopyButton } from '../../ui/CopyButton.tsx';

/**
 * One labelled value of a settings card, with an optional copy button. The <dt>/<dd> are direct
 * children of the group <div> (a valid definition list); the grid places the button beside them.
 */
export function Field({ label, value, copy }: { label: string; value: ReactNode; copy?: string }) {
  return (
    <div className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 border-b border-border/60 py-3 last:border-0">
      <dt className="col-start-1 text-xs uppercase tracking-wide text-muted">{label}</dt>
      <dd className="col-start-1 mt-0.5 truncate font-medium">{value}</dd>
      {copy && (
        <dd className="col-start-2 row-span-2 row-start-1">
          <CopyButton value={copy} label={label} />
        </dd>
      )}
    </div>
  );
}

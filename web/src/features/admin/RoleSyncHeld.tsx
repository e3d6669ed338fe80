import type { HeldChange } from '@guildhall/common';
import { ArrowRight, PauseCircle } from 'lucide-react';
import { Button } from '../../ui/Button.tsx';
import { accessLabel, heldTitle } from './role-sync.ts';

/**
 * Held demotions (the brake): who would lose what and why, nothing changed yet; Apply carries them out,
 * Discard drops them and pauses the sync until the settings are saved again.
 */
export function RoleSyncHeld({
  held,
  brake,
  disabled,
  onDecide,
}: {
  held: HeldChange[];
  brake: number;
  disabled: boolean;
  onDecide: (decision: 'confirm' | 'discard') => void;
}) {
  return (
    <section
      aria-labelledby="role-sync-held-title"
      data-testid="role-sync-held"
      className="mb-4 rounded-lg border border-danger/30 bg-danger/5 px-3 py-3 text-sm sm:px-4"
    >
      <h3 id="role-sync-held-title" className="font-medium text-danger-text">
        {heldTitle(held.length, brake)}
      </h3>
      <p className="mt-1 text-muted">Nobody below has changed yet.</p>
      <ul className="my-3 divide-y divide-border/60 rounded-lg border border-border bg-surface">
        {held.map((h) => (
          <li key={h.discordId} className="px-3 py-2" data-testid={`role-sync-held-${h.discordId}`}>
            <p className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
              <span className="min-w-0 truncate font-medium">{h.username}</span>
              <span className="flex items-center gap-1.5 text-muted">
                {accessLabel(h.fromLevel, h.fromApproved)}
                <ArrowRight aria-label="to" className="size-3.5" />
                <span className="text-text">{accessLabel(h.toLevel, h.toApproved)}</span>
              </span>
            </p>
            <p className="text-xs text-muted">{h.reason}</p>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="danger" disabled={disabled} onClick={() => onDecide('confirm')}>
          Apply these changes
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={disabled}
          icon={<PauseCircle className="size-4" />}
          onClick={() => onDecide('discard')}
        >
          Discard and pause
        </Button>
      </div>
      <p className="mt-2 text-xs text-muted">
        Discarding keeps everyone as they are and pauses the sync until the settings are saved again.
      </p>
    </section>
  );
}

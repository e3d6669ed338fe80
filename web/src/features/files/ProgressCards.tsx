import { ChevronDown, CircleCheck, CircleX, Download, Upload } from 'lucide-react';
import { useId, useState } from 'react';
import { CloseButton } from '../../ui/CloseButton.tsx';
import { cn } from '../../ui/cn.ts';
import { cardLine, type ProgressCard } from './progress-cards.ts';

/**
 * The upload and download cards (portal-tools §2, §4) in one collapsible panel, bottom right: a
 * header with the count and overall state, and a list that scrolls instead of stacking over the grid.
 */
export function ProgressCards({
  cards,
  onDismiss,
}: {
  cards: ProgressCard[];
  onDismiss: (id: string) => void;
}) {
  const [isOpen, setOpen] = useState(true);
  const listId = useId();
  if (cards.length === 0) return null;
  const active = cards.filter((c) => c.state === 'active').length;
  const failed = cards.filter((c) => c.state === 'error').length;
  const summary =
    active > 0
      ? `${active} transfer${active === 1 ? '' : 's'} in progress`
      : failed > 0
        ? `${failed} transfer${failed === 1 ? '' : 's'} failed`
        : 'Transfers complete';
  return (
    <section
      aria-label="Transfers"
      data-testid="transfer-panel"
      className="fixed inset-x-3 bottom-3 z-40 overflow-hidden rounded-xl border border-border bg-surface/95 shadow-2xl backdrop-blur sm:inset-x-auto sm:right-5 sm:bottom-5 sm:w-80"
    >
      <button
        type="button"
        aria-expanded={isOpen}
        aria-controls={listId}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full items-center gap-2 px-3 py-2 text-left text-sm font-medium hover:bg-surface-2/60"
      >
        <span className="flex-1" data-testid="transfer-summary">
          {summary}
        </span>
        <span className="rounded-full bg-surface-2 px-2 text-xs text-muted tabular-nums">{cards.length}</span>
        <ChevronDown
          className={cn('size-4 text-muted transition-transform', !isOpen && 'rotate-180')}
          aria-hidden
        />
        <span className="sr-only">{isOpen ? 'Collapse' : 'Expand'} transfers</span>
      </button>
      <div
        id={listId}
        hidden={!isOpen}
        className="max-h-[40vh] space-y-2 overflow-y-auto border-t border-border p-2"
      >
        {cards.map((c) => (
          <Card key={c.id} card={c} onDismiss={() => onDismiss(c.id)} />
        ))}
      </div>
    </section>
  );
}

function Card({ card, onDismiss }: { card: ProgressCard; onDismiss: () => void }) {
  const isUpload = card.kind === 'upload';
  const Icon = isUpload ? Upload : Download;
  const line = cardLine(card);
  return (
    <div
      role="status"
      data-testid={`${card.kind}-card`}
      data-state={card.state}
      className={cn(
        'rounded-lg border bg-surface-2/40 p-2.5',
        card.state === 'error'
          ? 'border-danger/40'
          : card.state === 'completed'
            ? 'border-success/40'
            : 'border-border',
      )}
    >
      <div className="flex items-center gap-2">
        {card.state === 'completed' ? (
          <CircleCheck className="size-4 shrink-0 text-success" />
        ) : card.state === 'error' ? (
          <CircleX className="size-4 shrink-0 text-danger" />
        ) : (
          <Icon className="size-4 shrink-0 text-brand" />
        )}
        <span className="min-w-0 flex-1 truncate text-sm font-medium" title={card.name}>
          {card.name}
        </span>
        {isUpload && card.state !== 'error' && (
          <span className="text-xs text-muted tabular-nums">{card.progress}%</span>
        )}
        <CloseButton label="Dismiss" onClick={onDismiss} size="sm" />
      </div>
      {isUpload && card.state !== 'error' && (
        <div
          className="mt-2 h-1.5 overflow-hidden rounded-full bg-surface-2"
          role="progressbar"
          aria-valuenow={card.progress}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-label={`Upload of ${card.name}`}
        >
          <div
            className={cn(
              'h-full rounded-full transition-[width] duration-300',
              card.state === 'completed' ? 'bg-success' : 'bg-brand',
            )}
            style={{ width: `${card.progress}%` }}
          />
        </div>
      )}
      {!isUpload && card.state === 'active' && (
        <div className="mt-2 h-1.5 overflow-hidden rounded-full bg-surface-2">
          <div className="h-full w-1/3 animate-pulse rounded-full bg-brand" />
        </div>
      )}
      <p
        data-testid="card-text"
        className={cn(
          'mt-1.5 flex justify-between gap-2 text-xs',
          card.state === 'error' ? 'text-danger-text' : 'text-muted',
        )}
      >
        <span>{line.text}</span>
        {line.bytes && <span className="tabular-nums">{line.bytes}</span>}
      </p>
    </div>
  );
}

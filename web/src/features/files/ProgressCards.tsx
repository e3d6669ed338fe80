import { formatFileSize, RECONNECTING_TEXT, uploadStageText } from '@guildhall/common';
import { CircleCheck, CircleX, Download, Upload } from 'lucide-react';
import { CloseButton } from '../../ui/CloseButton.tsx';
import { cn } from '../../ui/cn.ts';
import type { ProgressCard } from './progress-cards.ts';

/** The floating upload and download cards (portal-tools §2, §4), bottom right. */
export function ProgressCards({
  cards,
  onDismiss,
}: {
  cards: ProgressCard[];
  onDismiss: (id: string) => void;
}) {
  if (cards.length === 0) return null;
  return (
    <section
      aria-label="Transfers"
      className="fixed inset-x-3 bottom-3 z-40 flex flex-col gap-2 sm:inset-x-auto sm:right-5 sm:bottom-5 sm:w-80"
    >
      {cards.map((c) => (
        <Card key={c.id} card={c} onDismiss={() => onDismiss(c.id)} />
      ))}
    </section>
  );
}

function Card({ card, onDismiss }: { card: ProgressCard; onDismiss: () => void }) {
  const isUpload = card.kind === 'upload';
  const Icon = isUpload ? Upload : Download;
  const text =
    card.state === 'error'
      ? (card.message ?? 'Failed')
      : card.state === 'completed'
        ? isUpload
          ? 'Upload complete'
          : 'Download started'
        : isUpload
          ? card.reconnecting
            ? RECONNECTING_TEXT
            : uploadStageText(card.progress)
          : 'Downloading...';
  return (
    <div
      role="status"
      data-testid={`${card.kind}-card`}
      data-state={card.state}
      className={cn(
        'rounded-xl border bg-surface/95 p-3 shadow-2xl backdrop-blur',
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
          card.state === 'error' ? 'text-[#ff7b7e]' : 'text-muted',
        )}
      >
        <span>{text}</span>
        {isUpload && card.state === 'active' && card.totalBytes !== undefined && card.progress < 35 && (
          <span className="tabular-nums">
            {formatFileSize(card.sentBytes ?? 0)} / {formatFileSize(card.totalBytes)}
          </span>
        )}
      </p>
    </div>
  );
}

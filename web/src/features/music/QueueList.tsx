import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { MUSIC_PLATFORM_LABELS, type Song } from '@guildhall/common';
import { ArrowUpToLine, GripVertical, ListMusic, X } from 'lucide-react';
import { cn } from '../../ui/cn.ts';
import { formatDuration } from './playback-clock.ts';
import { AutoplayBadge, PlatformBadge, SongThumb } from './SongBits.tsx';

/**
 * The queue, reordered by dragging its handle with the mouse, a finger (after a short press, so the
 * list still scrolls) or the keyboard (space to lift, arrows to move, space to drop).
 */
export function QueueList({
  queue,
  canReorder,
  onReorder,
  onRemove,
  onPlayNext,
}: {
  queue: Song[];
  canReorder: boolean;
  onReorder: (from: number, to: number) => void;
  onRemove: (entryId: string) => void;
  onPlayNext: (entryId: string) => void;
}) {
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 4 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 150, tolerance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const indexOf = (id: unknown) => queue.findIndex((s) => s.entryId === id);
  const titleOf = (id: unknown) => queue[indexOf(id)]?.title ?? 'song';
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${titleOf(active.id)}, position ${indexOf(active.id) + 1}.`,
    onDragOver: ({ active, over }) =>
      over ? `${titleOf(active.id)} is over position ${indexOf(over.id) + 1}.` : undefined,
    onDragEnd: ({ active, over }) =>
      over ? `${titleOf(active.id)} moved to position ${indexOf(over.id) + 1}.` : 'Dropped.',
    onDragCancel: ({ active }) => `Reorder cancelled; ${titleOf(active.id)} stays where it was.`,
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = indexOf(active.id);
    const to = indexOf(over.id);
    if (from >= 0 && to >= 0) onReorder(from, to);
  };

  if (queue.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 py-10 text-center text-sm text-muted">
        <ListMusic className="size-8 text-muted/60" />
        The queue is empty. Add songs from the Search or Playlists tab.
      </div>
    );
  }
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable:
            'To reorder, press space or enter on the handle, move with the arrow keys, and press space or enter again to drop. Escape cancels.',
        },
      }}
    >
      <SortableContext items={queue.map((s) => s.entryId)} strategy={verticalListSortingStrategy}>
        <ol data-testid="queue" className="space-y-2">
          {queue.map((song, i) => (
            <QueueRow
              key={song.entryId}
              song={song}
              index={i}
              canReorder={canReorder}
              onRemove={onRemove}
              onPlayNext={onPlayNext}
            />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

function QueueRow({
  song,
  index,
  canReorder,
  onRemove,
  onPlayNext,
}: {
  song: Song;
  index: number;
  canReorder: boolean;
  onRemove: (entryId: string) => void;
  onPlayNext: (entryId: string) => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id: song.entryId, disabled: !canReorder });
  return (
    <li
      ref={setNodeRef}
      data-testid="queue-item"
      data-title={song.title}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={cn(
        'flex items-center gap-2 rounded-xl border border-border bg-bg/50 p-1.5 pr-3 sm:gap-3 sm:p-2',
        isDragging && 'relative z-10 border-brand/60 bg-surface-2 shadow-xl',
      )}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        {...attributes}
        {...listeners}
        aria-label={`Reorder ${song.title}`}
        data-testid="queue-handle"
        disabled={!canReorder}
        className="flex h-10 w-7 shrink-0 cursor-grab touch-none items-center justify-center rounded-md text-muted hover:bg-surface-2 hover:text-text active:cursor-grabbing disabled:cursor-not-allowed disabled:opacity-40"
      >
        <GripVertical className="size-4" />
      </button>
      <span className="hidden w-5 shrink-0 text-right text-xs tabular-nums text-muted sm:inline">
        {index + 1}
      </span>
      <SongThumb src={song.thumbnail} className="size-9 sm:size-10" />
      <div className="min-w-0 flex-1">
        <p className="line-clamp-2 text-sm font-medium break-words sm:truncate" data-testid="queue-title">
          {song.title}
        </p>
        <p className="truncate text-xs text-muted">
          {/* A library file has no artist; its badge already says Library. */}
          {song.uploader && song.uploader !== MUSIC_PLATFORM_LABELS[song.platform]
            ? `${song.uploader} · ${song.requestedBy.displayName}`
            : `Requested by ${song.requestedBy.displayName}`}
        </p>
      </div>
      {song.autoplay && <AutoplayBadge />}
      <span className="hidden sm:inline-flex">
        <PlatformBadge platform={song.platform} />
      </span>
      <span className="shrink-0 text-xs tabular-nums text-muted">{formatDuration(song.duration)}</span>
      {index > 0 && (
        <button
          type="button"
          aria-label={`Play ${song.title} next`}
          title="Play next"
          data-testid="queue-play-next"
          disabled={!canReorder}
          onClick={() => onPlayNext(song.entryId)}
          className="flex size-8 shrink-0 items-center justify-center rounded-md text-muted hover:bg-surface-2 hover:text-text disabled:cursor-not-allowed disabled:opacity-40"
        >
          <ArrowUpToLine className="size-4" />
        </button>
      )}
      <button
        type="button"
        aria-label={`Remove ${song.title} from the queue`}
        title="Remove from the queue"
        data-testid="queue-remove"
        disabled={!canReorder}
        onClick={() => onRemove(song.entryId)}
        className="flex size-8 shrink-0 items-center justify-center rounded-md text-muted hover:bg-danger/15 hover:text-danger-text disabled:cursor-not-allowed disabled:opacity-40"
      >
        <X className="size-4" />
      </button>
    </li>
  );
}

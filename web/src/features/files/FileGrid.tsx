import type { FileItem } from '@guildhall/common';
import { useState } from 'react';
import { Badge } from '../../ui/Badge.tsx';
import { cn } from '../../ui/cn.ts';
import { activateItem, dragSource, dropTarget, type ItemViewProps, menuActions } from './actions.tsx';
import { itemTitle, ownerLabel, permissionLabel, sizeLabel } from './display.ts';
import { ItemMenu } from './ItemMenu.tsx';
import { Thumbnail } from './Thumbnail.tsx';

/**
 * Grid cards: thumbnail (or icon), name, size, owner and permission badge; folders open on click, a
 * double click previews a file; items drag onto folders to move there.
 */
export function FileGrid(props: ItemViewProps) {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5">
      {props.items.map((item) => (
        <GridCard key={item.id} item={item} {...props} />
      ))}
    </ul>
  );
}

function GridCard(props: ItemViewProps & { item: FileItem }) {
  const { item, selected, onToggle, handlers, drag } = props;
  const [isOver, setOver] = useState(false);
  const isFolder = item.type === 'folder';
  const isSelected = selected.has(item.id);
  return (
    <li
      data-testid="file-card"
      data-name={item.name}
      data-selected={isSelected || undefined}
      {...dragSource(item, drag, handlers.canWrite)}
      {...(isFolder ? dropTarget(item.id, drag, setOver) : {})}
      className={cn(
        'group relative flex min-w-0 flex-col rounded-xl border bg-surface-2/40 transition-colors',
        isSelected ? 'border-brand bg-brand/10' : 'border-border hover:border-muted/50 hover:bg-surface-2/70',
        isOver && 'border-brand ring-2 ring-brand/50',
      )}
    >
      <button
        type="button"
        onClick={(e) => activateItem(item, props, e)}
        onDoubleClick={() => !isFolder && handlers.preview(item)}
        title={itemTitle(item)}
        className="flex min-w-0 flex-1 flex-col items-start gap-2 p-3 text-left sm:p-4"
      >
        <Thumbnail
          item={item}
          className="mb-1 aspect-[4/3] w-full rounded-lg bg-bg/40"
          iconClassName="size-10"
        />
        <span className="line-clamp-2 w-full text-sm font-medium break-words">{item.name}</span>
        <span className="w-full truncate text-xs text-muted">
          {sizeLabel(item)} · {ownerLabel(item)}
        </span>
        <Badge tone="success" className="mt-auto">
          {permissionLabel(item)}
        </Badge>
      </button>
      <div className="absolute top-2 right-2 flex items-center gap-1 rounded-lg bg-surface/70 p-0.5 backdrop-blur-sm">
        <input
          type="checkbox"
          checked={isSelected}
          onChange={() => {}}
          onClick={(e) => onToggle(item, e)}
          aria-label={`Select ${item.name}`}
          className="size-4 cursor-pointer accent-[#5865f2]"
        />
        <ItemMenu
          label={item.name}
          actions={menuActions(item, handlers)}
          className="opacity-100 transition-opacity sm:opacity-0 sm:group-focus-within:opacity-100 sm:group-hover:opacity-100"
        />
      </div>
    </li>
  );
}

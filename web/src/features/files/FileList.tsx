import type { FileItem } from '@guildhall/common';
import { Download, Share2, Trash } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../../ui/Badge.tsx';
import { cn } from '../../ui/cn.ts';
import { activateItem, dragSource, dropTarget, type ItemViewProps, menuActions } from './actions.tsx';
import { dateLabel, itemTitle, ownerLabel, permissionLabel, sizeLabel } from './display.ts';
import { ItemMenu } from './ItemMenu.tsx';
import { Thumbnail } from './Thumbnail.tsx';

const iconButton =
  'size-8 items-center justify-center rounded-lg text-muted transition-colors hover:bg-surface-2 hover:text-text disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-transparent';

/** List view: Name, Owner, Size, Modified, Permissions, Actions (portal-tools §2). */
export function FileList(props: ItemViewProps) {
  const { items } = props;
  return (
    <table className="w-full table-fixed text-sm">
      <thead>
        <tr className="border-b border-border text-left text-xs tracking-wide text-muted uppercase">
          <th className="w-9 py-2" aria-label="Select" />
          <th className="py-2 font-medium">Name</th>
          <th className="hidden w-24 py-2 font-medium md:table-cell">Owner</th>
          <th className="hidden w-24 py-2 font-medium sm:table-cell">Size</th>
          <th className="hidden w-44 py-2 font-medium lg:table-cell">Modified</th>
          <th className="hidden w-28 py-2 font-medium md:table-cell">Permissions</th>
          <th className="w-[6.75rem] py-2 text-right font-medium sm:w-44">Actions</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <ListRow key={item.id} item={item} {...props} />
        ))}
      </tbody>
    </table>
  );
}

function ListRow(props: ItemViewProps & { item: FileItem }) {
  const { item, selected, onToggle, handlers, drag } = props;
  const [isOver, setOver] = useState(false);
  const isFolder = item.type === 'folder';
  const isSelected = selected.has(item.id);
  return (
    <tr
      data-testid="file-row"
      data-name={item.name}
      data-selected={isSelected || undefined}
      {...dragSource(item, drag, handlers.canWrite)}
      {...(isFolder ? dropTarget(item.id, drag, setOver) : {})}
      className={cn(
        'border-b border-border/60 last:border-0',
        isSelected && 'bg-brand/10',
        isOver && 'bg-brand/20',
      )}
    >
      <td className="py-2 align-middle">
        <input
          type="checkbox"
          checked={isSelected}
          onChange={() => {}}
          onClick={(e) => onToggle(item, e)}
          aria-label={`Select ${item.name}`}
          className="block size-4 cursor-pointer accent-[#5865f2]"
        />
      </td>
      <td className="min-w-0 py-2 pr-2">
        <button
          type="button"
          onClick={(e) => activateItem(item, props, e)}
          onDoubleClick={() => !isFolder && handlers.preview(item)}
          className="flex w-full min-w-0 items-center gap-2.5 text-left"
          title={itemTitle(item)}
        >
          <Thumbnail item={item} className="size-8 shrink-0 rounded" iconClassName="size-5" />
          <span className="min-w-0">
            <span className={cn('block truncate', isFolder && 'font-medium')}>{item.name}</span>
            <span className="block text-xs text-muted sm:hidden">{sizeLabel(item)}</span>
          </span>
        </button>
      </td>
      <td className="hidden py-2 text-muted md:table-cell">{ownerLabel(item)}</td>
      <td className="hidden py-2 text-muted sm:table-cell">{sizeLabel(item)}</td>
      <td className="hidden py-2 text-muted lg:table-cell">{dateLabel(item.updatedAt)}</td>
      <td className="hidden py-2 md:table-cell">
        <Badge tone="success">{permissionLabel(item)}</Badge>
      </td>
      <td className="py-2">
        <div className="flex items-center justify-end gap-0.5">
          <button
            type="button"
            className={cn(iconButton, 'hidden sm:inline-flex')}
            aria-label={`Download ${item.name}`}
            title={isFolder ? 'Download as ZIP' : 'Download'}
            onClick={() => (isFolder ? handlers.downloadZip(item) : handlers.download(item))}
          >
            <Download className="size-4" />
          </button>
          {/* A disabled button gets no pointer events, so the hint sits on a wrapper. */}
          <span title="Share" className="inline-flex">
            <button
              type="button"
              className={cn(iconButton, 'inline-flex')}
              aria-label={`Share ${item.name}`}
              disabled={!handlers.canWrite}
              onClick={() => handlers.share(item)}
            >
              <Share2 className="size-4" />
            </button>
          </span>
          <button
            type="button"
            className={cn(iconButton, 'inline-flex hover:text-danger-text')}
            aria-label={`Delete ${item.name}`}
            title="Delete"
            disabled={!handlers.canWrite}
            onClick={() => handlers.remove(item)}
          >
            <Trash className="size-4" />
          </button>
          <ItemMenu label={item.name} actions={menuActions(item, handlers)} />
        </div>
      </td>
    </tr>
  );
}

import { Badge } from '../../ui/Badge.tsx';
import { cn } from '../../ui/cn.ts';
import { activateItem, type ItemViewProps, menuActions } from './actions.tsx';
import { itemTitle, ownerLabel, permissionLabel, sizeLabel } from './display.ts';
import { ItemIcon } from './ItemIcon.tsx';
import { ItemMenu } from './ItemMenu.tsx';

/** Grid cards: icon, name, size, owner and permission badge; folders open on click. */
export function FileGrid(props: ItemViewProps) {
  const { items, selected, onToggle, handlers } = props;
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5">
      {items.map((item) => {
        const isFolder = item.type === 'folder';
        const isSelected = selected.has(item.id);
        return (
          <li
            key={item.id}
            data-testid="file-card"
            data-name={item.name}
            className={cn(
              'group relative flex min-w-0 flex-col rounded-xl border bg-surface-2/40 transition-colors',
              isSelected
                ? 'border-brand bg-brand/10'
                : 'border-border hover:border-muted/50 hover:bg-surface-2/70',
            )}
          >
            <button
              type="button"
              onClick={() => activateItem(item, props)}
              title={itemTitle(item)}
              className="flex min-w-0 flex-1 flex-col items-start gap-2 p-4 text-left"
            >
              <ItemIcon item={item} className="mb-1 size-10" />
              <span className="line-clamp-2 w-full text-sm font-medium break-words">{item.name}</span>
              <span className="w-full truncate text-xs text-muted">
                {sizeLabel(item)} · {ownerLabel(item)}
              </span>
              <Badge tone="success" className="mt-auto">
                {permissionLabel(item)}
              </Badge>
            </button>
            <div className="absolute top-2 right-2 flex items-center gap-1">
              {!isFolder && (
                <input
                  type="checkbox"
                  checked={isSelected}
                  onChange={() => onToggle(item)}
                  aria-label={`Select ${item.name}`}
                  className="size-4 cursor-pointer accent-[#5865f2]"
                />
              )}
              <ItemMenu
                label={item.name}
                actions={menuActions(item, handlers)}
                className="opacity-100 transition-opacity sm:opacity-0 sm:group-focus-within:opacity-100 sm:group-hover:opacity-100"
              />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

import { type Breadcrumb, ROOT_FOLDER_LABEL } from '@guildhall/common';
import { ChevronRight, HardDrive, Tag } from 'lucide-react';
import { Fragment, useEffect, useRef, useState } from 'react';
import { cn } from '../../ui/cn.ts';
import { type DragHandlers, dropTarget } from './actions.tsx';

/**
 * ~/shared › folder › folder: every part but the last opens that folder, and takes dragged items (they
 * move there). On a phone the folders between the root and the last two fold into "…" (which opens the
 * parent), so the current folder is always in view.
 */
export function BreadcrumbBar({
  crumbs,
  category,
  onOpen,
  drag,
}: {
  crumbs: Breadcrumb[];
  category: string | null;
  onOpen: (folderId: string | null) => void;
  drag?: DragHandlers;
}) {
  const atRoot = crumbs.length === 0 && !category;
  const nav = useRef<HTMLElement>(null);
  const [over, setOver] = useState<string | null>(null);
  // A long path scrolls: keep its end (the current folder) in view.
  const last = crumbs.at(-1)?.id;
  useEffect(() => {
    void last;
    if (nav.current) nav.current.scrollLeft = nav.current.scrollWidth;
  }, [last]);
  const folded = crumbs.length > 2 ? crumbs.length - 2 : 0;
  const crumbClass = (isCurrent: boolean, id: string | null) =>
    cn(
      'rounded-md px-2 py-1 transition-colors',
      isCurrent ? 'text-text' : 'text-brand-text hover:bg-surface-2',
      over === (id ?? 'root') && 'bg-brand/20 ring-1 ring-brand',
    );
  const target = (id: string | null) =>
    dropTarget(id, drag, (isOver) => setOver(isOver ? (id ?? 'root') : null));

  return (
    <nav ref={nav} aria-label="Breadcrumb" className="min-w-0 overflow-x-auto">
      <ol className="flex items-center gap-1 font-mono text-sm whitespace-nowrap">
        <li>
          <button
            type="button"
            onClick={() => onOpen(null)}
            aria-current={atRoot ? 'page' : undefined}
            aria-label={ROOT_FOLDER_LABEL}
            {...(atRoot ? {} : target(null))}
            className={cn('inline-flex items-center gap-1.5', crumbClass(atRoot, null))}
          >
            <HardDrive className="size-4" />
            <span className={cn(crumbs.length > 0 && 'max-sm:hidden')}>{ROOT_FOLDER_LABEL}</span>
          </button>
        </li>
        {category && (
          <li className="flex items-center gap-1 text-text">
            <ChevronRight className="size-4 text-muted" />
            <span className="inline-flex items-center gap-1.5 px-2 py-1">
              <Tag className="size-3.5" />
              {category}
            </span>
          </li>
        )}
        {folded > 0 && (
          <li className="flex items-center gap-1 sm:hidden">
            <ChevronRight aria-hidden className="size-4 text-muted" />
            <button
              type="button"
              onClick={() => onOpen(crumbs[folded - 1]!.id)}
              aria-label={`Up to ${crumbs[folded - 1]!.name}`}
              className={crumbClass(false, '…')}
            >
              …
            </button>
          </li>
        )}
        {crumbs.map((c, i) => {
          const isLast = i === crumbs.length - 1;
          const isFolded = i < folded;
          return (
            <Fragment key={c.id}>
              <li aria-hidden className={cn('text-muted', isFolded && 'max-sm:hidden')}>
                <ChevronRight className="size-4" />
              </li>
              <li className={cn(isFolded && 'max-sm:hidden')}>
                <button
                  type="button"
                  onClick={() => onOpen(c.id)}
                  disabled={isLast}
                  aria-current={isLast ? 'page' : undefined}
                  {...(isLast ? {} : target(c.id))}
                  className={cn('max-w-[14rem] truncate max-sm:max-w-[9rem]', crumbClass(isLast, c.id))}
                  title={c.name}
                >
                  {c.name}
                </button>
              </li>
            </Fragment>
          );
        })}
      </ol>
    </nav>
  );
}

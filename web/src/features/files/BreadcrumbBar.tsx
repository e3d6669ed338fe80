import { type Breadcrumb, ROOT_FOLDER_LABEL } from '@guildhall/common';
import { ChevronRight, HardDrive, Tag } from 'lucide-react';
import { Fragment } from 'react';
import { cn } from '../../ui/cn.ts';

/** ~/shared › folder › folder: every part but the last opens that folder. */
export function BreadcrumbBar({
  crumbs,
  category,
  onOpen,
}: {
  crumbs: Breadcrumb[];
  category: string | null;
  onOpen: (folderId: string | null) => void;
}) {
  const atRoot = crumbs.length === 0 && !category;
  return (
    <nav aria-label="Breadcrumb" className="min-w-0 overflow-x-auto">
      <ol className="flex items-center gap-1 font-mono text-sm whitespace-nowrap">
        <li>
          <button
            type="button"
            onClick={() => onOpen(null)}
            aria-current={atRoot ? 'page' : undefined}
            className={cn(
              'inline-flex items-center gap-1.5 rounded-md px-2 py-1 transition-colors',
              atRoot ? 'text-text' : 'text-brand-text hover:bg-surface-2',
            )}
          >
            <HardDrive className="size-4" />
            {ROOT_FOLDER_LABEL}
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
        {crumbs.map((c, i) => {
          const isLast = i === crumbs.length - 1;
          return (
            <Fragment key={c.id}>
              <li aria-hidden className="text-muted">
                <ChevronRight className="size-4" />
              </li>
              <li>
                <button
                  type="button"
                  onClick={() => onOpen(c.id)}
                  disabled={isLast}
                  aria-current={isLast ? 'page' : undefined}
                  className={cn(
                    'max-w-[14rem] truncate rounded-md px-2 py-1 transition-colors',
                    isLast ? 'text-text' : 'text-brand-text hover:bg-surface-2',
                  )}
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

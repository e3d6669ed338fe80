import { type Category, FILE_MANAGER_TEXTS } from '@guildhall/common';
import { ArrowDownUp, FolderPlus, LayoutGrid, List, Search, Trash2, Upload } from 'lucide-react';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { inputClass } from '../../ui/Modal.tsx';
import { SORT_KEYS, type SortOrder } from './display.ts';

export type ViewMode = 'grid' | 'list';

/** Filter, category, Upload (multiple), New Folder and the grid/list toggle. */
export function Toolbar(props: {
  filter: string;
  onFilter: (value: string) => void;
  category: string | null;
  categories: Category[];
  onCategory: (name: string | null) => void;
  onUploadClick: () => void;
  onNewFolder: () => void;
  view: ViewMode;
  onView: (view: ViewMode) => void;
  canWrite: boolean;
  search: string;
  onSearch: (value: string) => void;
  sort: SortOrder;
  onSort: (sort: SortOrder) => void;
  isTrash: boolean;
  onTrash: (show: boolean) => void;
}) {
  const writeHint = props.canWrite ? undefined : 'Uploading and creating folders need the user level';
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <label className="relative min-w-0 flex-1 basis-full sm:basis-56">
          <span className="sr-only">{FILE_MANAGER_TEXTS.searchPlaceholder}</span>
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted" />
          <input
            type="search"
            data-testid="search-all"
            value={props.search}
            onChange={(e) => props.onSearch(e.target.value)}
            placeholder={`${FILE_MANAGER_TEXTS.searchPlaceholder}...`}
            className={cn(inputClass, 'pl-9')}
          />
        </label>
        <label className="flex min-w-0 flex-1 items-center gap-1 sm:flex-none">
          <ArrowDownUp aria-hidden className="size-4 shrink-0 text-muted" />
          <span className="sr-only">Sort by</span>
          <select
            data-testid="sort"
            value={`${props.sort.key}-${props.sort.dir}`}
            onChange={(e) => {
              const [key, dir] = e.target.value.split('-') as [SortOrder['key'], SortOrder['dir']];
              props.onSort({ key, dir });
            }}
            className={cn(inputClass, 'pr-8 sm:w-48')}
          >
            {SORT_KEYS.flatMap(({ key, label }) => [
              <option key={`${key}-asc`} value={`${key}-asc`}>
                {label}{' '}
                {key === 'name' || key === 'type' ? 'A→Z' : key === 'size' ? '(smallest)' : '(oldest)'}
              </option>,
              <option key={`${key}-desc`} value={`${key}-desc`}>
                {label} {key === 'name' || key === 'type' ? 'Z→A' : key === 'size' ? '(largest)' : '(newest)'}
              </option>,
            ])}
          </select>
        </label>
        <Button
          variant={props.isTrash ? 'primary' : 'secondary'}
          aria-pressed={props.isTrash}
          onClick={() => props.onTrash(!props.isTrash)}
          icon={<Trash2 className="size-4" />}
        >
          {FILE_MANAGER_TEXTS.trash}
        </Button>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <label className="relative order-1 min-w-0 flex-1 basis-full md:basis-48">
          <span className="sr-only">Filter files</span>
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted" />
          <input
            type="search"
            value={props.filter}
            onChange={(e) => props.onFilter(e.target.value)}
            placeholder="Filter by name..."
            className={cn(inputClass, 'pl-9')}
          />
        </label>
        <label className="order-2 min-w-0 flex-1 md:w-44 md:flex-none">
          <span className="sr-only">Category</span>
          <select
            value={props.category ?? ''}
            onChange={(e) => props.onCategory(e.target.value || null)}
            className={cn(inputClass, 'pr-8')}
          >
            <option value="">All categories</option>
            {props.categories.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name} ({c.count})
              </option>
            ))}
            {props.category && !props.categories.some((c) => c.name === props.category) && (
              <option value={props.category}>{props.category}</option>
            )}
          </select>
        </label>
        <div className="order-4 flex w-full items-center gap-2 md:w-auto">
          <Button
            className="flex-1 md:flex-none"
            onClick={props.onUploadClick}
            disabled={!props.canWrite}
            title={writeHint}
            icon={<Upload className="size-4" />}
          >
            Upload
          </Button>
          <Button
            variant="secondary"
            className="flex-1 md:flex-none"
            onClick={props.onNewFolder}
            disabled={!props.canWrite || !!props.category}
            title={writeHint}
            icon={<FolderPlus className="size-4" />}
          >
            New Folder
          </Button>
        </div>
        <fieldset
          aria-label="View"
          className="order-3 flex shrink-0 rounded-lg border border-border p-0.5 md:order-5"
        >
          {(['grid', 'list'] as const).map((mode) => (
            <button
              key={mode}
              type="button"
              aria-pressed={props.view === mode}
              aria-label={mode === 'grid' ? 'Grid view' : 'List view'}
              title={mode === 'grid' ? 'Grid view' : 'List view'}
              onClick={() => props.onView(mode)}
              className={cn(
                'inline-flex size-8 items-center justify-center rounded-md transition-colors',
                props.view === mode ? 'bg-surface-2 text-text' : 'text-muted hover:text-text',
              )}
            >
              {mode === 'grid' ? <LayoutGrid className="size-4" /> : <List className="size-4" />}
            </button>
          ))}
        </fieldset>
      </div>
    </div>
  );
}

import type { Category } from '@guildhall/common';
import { FolderPlus, LayoutGrid, List, Search, Upload } from 'lucide-react';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { inputClass } from '../../ui/Modal.tsx';

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
}) {
  const writeHint = props.canWrite ? undefined : 'Uploading and creating folders need the user level';
  return (
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
  );
}

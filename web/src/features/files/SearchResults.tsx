import { FILE_MANAGER_TEXTS, type FileSearchHit, ROOT_FOLDER_LABEL } from '@guildhall/common';
import { useQuery } from '@tanstack/react-query';
import { SearchX } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Spinner } from '../../ui/Spinner.tsx';
import { findItems } from './api.ts';
import { sizeLabel } from './display.ts';
import { Thumbnail } from './Thumbnail.tsx';
import { FILES_KEY } from './useFilesView.ts';

/** The text typed, settled for 250 ms (a search per pause, not per key). */
export function useSettled(value: string, ms = 250): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** Matches by name in every folder, each with the folder it is in (which opens on click). */
export function SearchResults({
  query,
  onOpenFolder,
  onPreview,
}: {
  query: string;
  onOpenFolder: (folderId: string | null) => void;
  onPreview: (hit: FileSearchHit, all: FileSearchHit[]) => void;
}) {
  const q = useSettled(query.trim());
  const results = useQuery({
    queryKey: [...FILES_KEY, 'find', q],
    queryFn: () => findItems(q),
    enabled: q.length > 0,
  });
  if (results.isPending || q !== query.trim()) {
    return (
      <div className="flex justify-center py-12">
        <Spinner className="size-6" />
      </div>
    );
  }
  if (results.isError) {
    return (
      <p role="alert" className="py-10 text-center text-sm text-danger-text">
        Search failed: {results.error instanceof Error ? results.error.message : 'try again'}
      </p>
    );
  }
  const hits = results.data.data;
  if (hits.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 py-12 text-center text-muted">
        <SearchX className="size-8" />
        <p>
          {FILE_MANAGER_TEXTS.noSearchResults} “{q}”
        </p>
      </div>
    );
  }
  return (
    <div>
      <ul data-testid="search-results" className="divide-y divide-border/60">
        {hits.map((hit) => {
          const folder = hit.folderPath.at(-1);
          return (
            <li
              key={hit.id}
              data-testid="search-hit"
              data-name={hit.name}
              className="flex items-center gap-3 py-2"
            >
              <Thumbnail item={hit} className="size-10 shrink-0 rounded-md" iconClassName="size-6" />
              <div className="min-w-0 flex-1">
                <button
                  type="button"
                  className="block max-w-full truncate text-left text-sm font-medium hover:underline"
                  onClick={() => (hit.type === 'folder' ? onOpenFolder(hit.id) : onPreview(hit, hits))}
                >
                  {hit.name}
                </button>
                <button
                  type="button"
                  data-testid="search-hit-path"
                  onClick={() => onOpenFolder(folder?.id ?? null)}
                  className="block max-w-full truncate text-left font-mono text-xs text-muted hover:text-brand-text"
                  title="Open the folder it is in"
                >
                  {[ROOT_FOLDER_LABEL, ...hit.folderPath.map((p) => p.name)].join(' › ')}
                </button>
              </div>
              <span className="shrink-0 text-xs text-muted">{sizeLabel(hit)}</span>
            </li>
          );
        })}
      </ul>
      {results.data.truncated && (
        <p className="pt-3 text-center text-xs text-muted">
          Only the first {hits.length} matches are shown; type more to narrow it.
        </p>
      )}
    </div>
  );
}

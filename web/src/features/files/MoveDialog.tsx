import { FILE_MANAGER_TEXTS, type FileItem, ROOT_FOLDER_LABEL } from '@guildhall/common';
import { useQuery } from '@tanstack/react-query';
import { ChevronRight, Folder, HardDrive } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { fetchBreadcrumbs, fetchFolder } from './api.ts';
import { FILES_KEY } from './useFilesView.ts';

/** "Move to…": browse the folders (never into what is being moved) and move the items into one. */
export function MoveDialog({
  items,
  startFolderId,
  onMove,
  onClose,
}: {
  items: FileItem[];
  startFolderId: string | null;
  onMove: (targetFolderId: string | null) => Promise<void>;
  onClose: () => void;
}) {
  const [folderId, setFolderId] = useState<string | null>(startFolderId);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const moving = new Set(items.map((i) => i.id));
  const listing = useQuery({
    queryKey: [...FILES_KEY, 'list', { folderId }],
    queryFn: () => fetchFolder(folderId),
  });
  const crumbs = useQuery({
    queryKey: [...FILES_KEY, 'crumbs', folderId],
    queryFn: () => fetchBreadcrumbs(folderId!),
    enabled: !!folderId,
  });
  const folders = (listing.data?.data ?? []).filter((i) => i.type === 'folder' && !moving.has(i.id));
  const path = folderId ? (crumbs.data ?? []) : [];
  const isSameFolder = items.every((i) => i.parentId === folderId);

  return (
    <Modal title={FILE_MANAGER_TEXTS.moveTo} onClose={onClose} className="max-w-lg">
      <p className="-mt-2 mb-3 text-sm text-muted">
        {items.length === 1 ? `Move “${items[0]!.name}” into:` : `Move ${items.length} items into:`}
      </p>
      <nav aria-label="Destination" className="mb-2 flex flex-wrap items-center gap-1 font-mono text-xs">
        <button
          type="button"
          className="rounded px-1.5 py-0.5 text-brand-text hover:bg-surface-2"
          onClick={() => setFolderId(null)}
        >
          <HardDrive className="mr-1 inline size-3.5" />
          {ROOT_FOLDER_LABEL}
        </button>
        {path.map((c) => (
          <span key={c.id} className="flex items-center gap-1">
            <ChevronRight className="size-3 text-muted" />
            <button
              type="button"
              className="rounded px-1.5 py-0.5 text-brand-text hover:bg-surface-2"
              onClick={() => setFolderId(c.id)}
            >
              {c.name}
            </button>
          </span>
        ))}
      </nav>
      <div className="h-64 overflow-y-auto rounded-lg border border-border bg-bg/40">
        {listing.isPending ? (
          <div className="flex h-full items-center justify-center">
            <Spinner className="size-6" />
          </div>
        ) : folders.length === 0 ? (
          <p className="p-4 text-center text-sm text-muted">No folders here</p>
        ) : (
          <ul>
            {folders.map((f) => (
              <li key={f.id}>
                <button
                  type="button"
                  data-testid="move-folder"
                  onClick={() => setFolderId(f.id)}
                  className="flex w-full items-center gap-2 px-3 py-2 text-left text-sm hover:bg-surface-2"
                >
                  <Folder className="size-4 text-warning-text" />
                  <span className="truncate">{f.name}</span>
                  <ChevronRight className="ml-auto size-4 text-muted" />
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      {error && (
        <p role="alert" className="mt-3 text-sm text-danger-text">
          {error}
        </p>
      )}
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button
          disabled={busy || isSameFolder}
          title={isSameFolder ? 'Already in this folder' : undefined}
          onClick={async () => {
            setBusy(true);
            setError(null);
            try {
              await onMove(folderId);
              onClose();
            } catch (e) {
              setError(`${FILE_MANAGER_TEXTS.moveFailed}: ${e instanceof Error ? e.message : ''}`);
            } finally {
              setBusy(false);
            }
          }}
        >
          Move here
        </Button>
      </div>
    </Modal>
  );
}

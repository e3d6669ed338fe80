import {
  FILE_MANAGER_TEXTS,
  FILES_TEXTS,
  FILES_TOAST_MS,
  type FileItem,
  formatFileSize,
  hasLevel,
  itemsFailedToDeleteText,
  TRASH_RETENTION_DAYS,
} from '@guildhall/common';
import { FolderOpen, HardDrive, RefreshCw, TriangleExclamationPoint, Upload } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { useAuth } from '../../auth/useAuth.ts';
import { BackLink } from '../../ui/BackLink.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Page } from '../../ui/Page.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import type { DragHandlers, ItemHandlers } from './actions.tsx';
import {
  archiveTicket,
  categorizeFile,
  createFolder,
  deleteItem,
  folderContents,
  moveItems,
  previewUrl,
  renameItem,
} from './api.ts';
import { BreadcrumbBar } from './BreadcrumbBar.tsx';
import { filterItems, parseSort, type SortOrder, shareTarget, sortItems } from './display.ts';
import { FileGrid } from './FileGrid.tsx';
import { FileList } from './FileList.tsx';
import { MoveDialog } from './MoveDialog.tsx';
import { itemNameProblem, NameModal } from './NameModal.tsx';
import { PreviewDialog, type PreviewFile } from './PreviewDialog.tsx';
import { ProgressCards } from './ProgressCards.tsx';
import { SearchResults } from './SearchResults.tsx';
import { SelectionBar } from './SelectionBar.tsx';
import { ShareModal } from './ShareModal.tsx';
import { Toolbar, type ViewMode } from './Toolbar.tsx';
import { TrashView } from './TrashView.tsx';
import { startBrowserDownload, useDownloads } from './useDownloads.ts';
import { useDropUpload } from './useDropUpload.ts';
import { useFileShortcuts } from './useFileShortcuts.ts';
import { useFilesView } from './useFilesView.ts';
import { useProgressCards } from './useProgressCards.ts';
import { useUploads } from './useUploads.ts';

// Upload links (issue 45) load when their dialog opens: most visits to the files page never open it.
const RequestFilesModal = lazy(() =>
  import('./RequestFilesModal.tsx').then((m) => ({ default: m.RequestFilesModal })),
);

type ModalState =
  | { kind: 'newFolder' }
  | { kind: 'rename'; item: FileItem }
  | { kind: 'categorize'; item: FileItem }
  | { kind: 'share'; file: FileItem }
  | { kind: 'request'; folder: FileItem }
  | { kind: 'deleteFolder'; folder: FileItem; inside: number }
  | { kind: 'deleteFiles'; files: FileItem[] }
  | { kind: 'move'; items: FileItem[] };

const VIEW_KEY = 'files:view';
const SORT_KEY = 'files:sort';

/** The Shared File System screen (portal-tools §2 /filesystem). */
export function FilesPage() {
  const { user } = useAuth();
  const canWrite = hasLevel(user?.accessLevel, 'user');
  const isAdmin = hasLevel(user?.accessLevel, 'admin');
  const view = useFilesView();
  const [filter, setFilter] = useState('');
  const [search, setSearch] = useState('');
  const [isTrash, setTrash] = useState(false);
  const [sort, setSortState] = useState<SortOrder>(() => parseSort(localStorage.getItem(SORT_KEY)));
  const setSort = (next: SortOrder) => {
    setSortState(next);
    localStorage.setItem(SORT_KEY, `${next.key}-${next.dir}`);
  };
  const [preview, setPreview] = useState<{ files: PreviewFile[]; index: number } | null>(null);
  const anchor = useRef<string | null>(null);
  const [mode, setMode] = useState<ViewMode>(() =>
    localStorage.getItem(VIEW_KEY) === 'list' ? 'list' : 'grid',
  );
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [modal, setModal] = useState<ModalState | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const { cards, api: cardApi } = useProgressCards();
  const { downloadOne, downloadMany } = useDownloads(cardApi);
  const upload = useUploads(cardApi, {
    maxUploadBytes: view.maxUploadBytes,
    onUploaded: () => void view.refresh(),
  });

  // A new place starts with nothing selected and no filter.
  const place = `${view.folderId}|${view.category}`;
  useEffect(() => {
    void place;
    setSelected(new Set());
    setFilter('');
    setTrash(false);
    anchor.current = null;
  }, [place]);

  const shown = useMemo(() => sortItems(filterItems(view.items, filter), sort), [view.items, filter, sort]);
  const selectedFiles = shown.filter((i) => selected.has(i.id));
  const target = { folderId: view.folderId, category: view.category };
  const startUpload = useCallback(
    (files: File[]) => upload(files, { folderId: view.folderId, category: view.category }),
    [upload, view.folderId, view.category],
  );
  const isDragging = useDropUpload(startUpload, canWrite);

  /** Plain click or Ctrl/⌘: toggles the item. Shift: selects from the last clicked item to this one. */
  const toggle = (item: FileItem, event?: { shiftKey: boolean }) => {
    const from = anchor.current ? shown.findIndex((i) => i.id === anchor.current) : -1;
    const to = shown.findIndex((i) => i.id === item.id);
    if (event?.shiftKey && from >= 0 && to >= 0) {
      const [a, b] = from < to ? [from, to] : [to, from];
      setSelected((s) => new Set([...s, ...shown.slice(a, b + 1).map((i) => i.id)]));
      return;
    }
    anchor.current = item.id;
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(item.id)) next.delete(item.id);
      else next.add(item.id);
      return next;
    });
  };

  const openPreview = (file: FileItem, among: FileItem[] = shown) => {
    const files = among.filter((i) => i.type === 'file');
    setPreview({
      files,
      index: Math.max(
        0,
        files.findIndex((f) => f.id === file.id),
      ),
    });
  };

  async function downloadZip(items: FileItem[]) {
    try {
      const { url } = await archiveTicket(items.map((i) => i.id));
      startBrowserDownload(url, '');
      toast.success('ZIP download started', { duration: FILES_TOAST_MS });
    } catch (e) {
      toast.error(FILES_TEXTS.downloadFailedToast, { description: errorText(e), duration: FILES_TOAST_MS });
    }
  }

  async function move(ids: string[], targetFolderId: string | null) {
    const { moved } = await moveItems(ids, targetFolderId);
    toast.success(FILE_MANAGER_TEXTS.moved(moved), { duration: FILES_TOAST_MS });
    setSelected(new Set());
    await view.refresh();
  }

  const drag: DragHandlers = {
    idsFor: (item) => (selected.has(item.id) ? [...selected] : [item.id]),
    onDropInto: (folderId, ids) => {
      if (folderId === view.folderId) return;
      move(ids, folderId).catch((e: unknown) =>
        toast.error(FILE_MANAGER_TEXTS.moveFailed, { description: errorText(e), duration: FILES_TOAST_MS }),
      );
    },
  };

  const askDelete = (items: FileItem[]) => {
    const folder = items.length === 1 && items[0]!.type === 'folder' ? items[0]! : null;
    if (folder) return handlers.remove(folder);
    setModal({ kind: 'deleteFiles', files: items });
  };

  useFileShortcuts({
    isActive: !modal && !preview && !isTrash && !search.trim(),
    onDelete: () => canWrite && selectedFiles.length > 0 && askDelete(selectedFiles),
    onRename: () =>
      canWrite && selectedFiles.length === 1 && setModal({ kind: 'rename', item: selectedFiles[0]! }),
    onSelectAll: () => setSelected(new Set(shown.map((i) => i.id))),
    onClear: () => setSelected(new Set()),
    onOpen: () =>
      selectedFiles.length === 1 && selectedFiles[0]!.type === 'file' && openPreview(selectedFiles[0]!),
  });

  async function deleteSequentially(items: FileItem[]) {
    let failed = 0;
    for (const item of items) {
      try {
        await deleteItem(item);
      } catch {
        failed += 1;
      }
    }
    const ok = items.length - failed;
    if (items.length === 1) {
      if (failed) toast.error(FILES_TEXTS.deleteFailed, { duration: FILES_TOAST_MS });
      else toast.success(`Deleted ${items[0]!.name}`, { description: IN_TRASH, duration: FILES_TOAST_MS });
    } else if (failed === items.length) {
      toast.error(FILES_TEXTS.bulkDeleteFailed, {
        description: itemsFailedToDeleteText(failed),
        duration: FILES_TOAST_MS,
      });
    } else if (failed > 0) {
      toast.warning(`Deleted ${ok} item(s)`, {
        description: itemsFailedToDeleteText(failed),
        duration: FILES_TOAST_MS,
      });
    } else {
      toast.success(`Deleted ${ok} item(s)`, { description: IN_TRASH, duration: FILES_TOAST_MS });
    }
    setSelected(new Set());
    await view.refresh();
  }

  const handlers: ItemHandlers = {
    canWrite,
    open: (folder) => view.openFolder(folder.id),
    download: (file) => void downloadOne(file),
    share: (file) => setModal({ kind: 'share', file }),
    // Upload links go into the member's own folders only (issue 45).
    requestFiles: (folder) => setModal({ kind: 'request', folder }),
    ownsFolder: (folder) => !!user && folder.uploadedBy?.id === user.id,
    rename: (item) => setModal({ kind: 'rename', item }),
    categorize: (item) => setModal({ kind: 'categorize', item }),
    preview: (file) => openPreview(file),
    moveTo: (item) => setModal({ kind: 'move', items: selected.has(item.id) ? selectedFiles : [item] }),
    downloadZip: (item) => void downloadZip([item]),
    remove: async (item) => {
      if (item.type === 'file') return setModal({ kind: 'deleteFiles', files: [item] });
      try {
        const inside = await folderContents(item.id);
        setModal({ kind: 'deleteFolder', folder: item, inside: inside.files + inside.folders });
      } catch (e) {
        toast.error(FILES_TEXTS.deleteFailed, { description: errorText(e), duration: FILES_TOAST_MS });
      }
    },
  };

  return (
    <Page wide>
      <div className="mb-6 flex items-center justify-between gap-3">
        <BackLink to="/dashboard">
          <span>
            Back<span className="hidden sm:inline"> to Dashboard</span>
          </span>
        </BackLink>
      </div>
      <header className="mb-6 flex flex-wrap items-end justify-between gap-3">
        <div>
          <p className="text-sm text-muted">Files shared by the community</p>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Shared File System</h1>
        </div>
        <div className="flex flex-col items-start gap-1 sm:items-end">
          <p data-testid="files-count" className="flex items-center gap-2 text-sm text-muted">
            <HardDrive className="size-4" />
            {view.stats
              ? `${view.stats.files} file${view.stats.files === 1 ? '' : 's'} stored · ${formatFileSize(view.stats.bytes)}`
              : view.isError
                ? 'Storage figures unavailable'
                : '…'}
          </p>
          {view.usage && <UsageLine usedBytes={view.usage.usedBytes} quotaBytes={view.usage.quotaBytes} />}
        </div>
      </header>

      <Card className="space-y-4 p-4 sm:p-5">
        <div className="rounded-xl border border-border bg-bg/50 px-2 py-1.5">
          <BreadcrumbBar
            crumbs={view.crumbs}
            category={view.category}
            onOpen={view.openFolder}
            drag={canWrite ? drag : undefined}
          />
        </div>
        <Toolbar
          filter={filter}
          onFilter={setFilter}
          category={view.category}
          categories={view.categories}
          onCategory={view.showCategory}
          onUploadClick={() => picker.current?.click()}
          onNewFolder={() => setModal({ kind: 'newFolder' })}
          view={mode}
          onView={(m) => {
            setMode(m);
            localStorage.setItem(VIEW_KEY, m);
          }}
          canWrite={canWrite}
          search={search}
          onSearch={setSearch}
          sort={sort}
          onSort={setSort}
          isTrash={isTrash}
          onTrash={(show) => {
            setTrash(show);
            setSelected(new Set());
          }}
        />
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          data-testid="upload-input"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            if (files.length > 0) startUpload(files);
          }}
        />
        {selectedFiles.length > 0 && !isTrash && !search.trim() && (
          <SelectionBar
            count={selectedFiles.length}
            canWrite={canWrite}
            onClear={() => setSelected(new Set())}
            onZip={() => void downloadZip(selectedFiles)}
            onMove={() => setModal({ kind: 'move', items: selectedFiles })}
            onDownload={() =>
              selectedFiles.some((i) => i.type === 'folder')
                ? void downloadZip(selectedFiles)
                : void downloadMany(selectedFiles)
            }
            onShare={() => {
              const t = shareTarget(selectedFiles);
              if ('error' in t) toast.error(t.error, { duration: FILES_TOAST_MS });
              else setModal({ kind: 'share', file: t.file });
            }}
            onDelete={() => askDelete(selectedFiles)}
          />
        )}

        {isTrash ? (
          <TrashView canWrite={canWrite} isAdmin={isAdmin} />
        ) : search.trim() ? (
          <SearchResults
            query={search}
            onOpenFolder={(id) => {
              setSearch('');
              view.openFolder(id);
            }}
            onPreview={(hit, all) => openPreview(hit, all)}
          />
        ) : view.isLoading ? (
          <div className="flex justify-center py-16">
            <Spinner className="size-8" />
          </div>
        ) : view.isError ? (
          // "Failed to load files" with Retry, once: here where the files would be (no toast besides).
          <div role="alert" className="flex flex-col items-center gap-3 py-14 text-center">
            <TriangleExclamationPoint className="size-10 text-danger" />
            <p className="font-medium">{FILES_TEXTS.loadFilesFailed}</p>
            <p className="max-w-md text-sm text-muted">{errorText(view.error)}</p>
            <Button
              variant="secondary"
              onClick={() => void view.retry()}
              icon={<RefreshCw className="size-4" />}
            >
              Retry
            </Button>
          </div>
        ) : shown.length === 0 ? (
          <div className="flex flex-col items-center gap-3 py-14 text-center">
            <FolderOpen className="size-10 text-muted" />
            <p className="font-medium">{FILES_TEXTS.noFilesFound}</p>
            {!filter.trim() && (
              <Button
                onClick={() => picker.current?.click()}
                disabled={!canWrite}
                icon={<Upload className="size-4" />}
              >
                {FILES_TEXTS.uploadFiles}
              </Button>
            )}
          </div>
        ) : mode === 'grid' ? (
          <FileGrid
            items={shown}
            selected={selected}
            onToggle={toggle}
            handlers={handlers}
            drag={canWrite ? drag : undefined}
          />
        ) : (
          <FileList
            items={shown}
            selected={selected}
            onToggle={toggle}
            handlers={handlers}
            drag={canWrite ? drag : undefined}
          />
        )}
      </Card>

      <ProgressCards cards={cards} onDismiss={cardApi.remove} />
      {isDragging && (
        <div className="pointer-events-none fixed inset-0 z-40 flex items-center justify-center bg-brand/15 backdrop-blur-sm">
          <div className="rounded-2xl border-2 border-dashed border-brand bg-surface/90 px-10 py-8 text-center">
            <Upload className="mx-auto mb-2 size-8 text-brand" />
            <p className="font-medium">Drop files to upload</p>
          </div>
        </div>
      )}

      {modal?.kind === 'newFolder' && (
        <NameModal
          title={FILES_TEXTS.createNewFolder}
          label="Folder name"
          placeholder="New folder"
          submitLabel="Create"
          validate={(v) => itemNameProblem(v, FILES_TEXTS.folderNameRequired)}
          onSubmit={async (name) => {
            try {
              await createFolder(name, target.folderId);
            } catch (e) {
              // Said once, inside the dialog (which stays open to fix the name), not again as a toast.
              throw new Error(`${FILES_TEXTS.createFolderFailed}: ${errorText(e)}`);
            }
            toast.success(`Folder "${name}" created`, { duration: FILES_TOAST_MS });
            await view.refresh();
          }}
          onClose={() => setModal(null)}
        />
      )}
      {modal?.kind === 'rename' && (
        <NameModal
          title={`Rename ${modal.item.type === 'folder' ? 'Folder' : 'File'}`}
          label="New name"
          initial={modal.item.name}
          submitLabel="Rename"
          validate={(v) => itemNameProblem(v, 'Please enter a name')}
          onSubmit={async (name) => {
            await renameItem(modal.item.id, name);
            toast.success(`Renamed to "${name}"`, { duration: FILES_TOAST_MS });
            await view.refresh();
          }}
          onClose={() => setModal(null)}
        />
      )}
      {modal?.kind === 'categorize' && (
        <NameModal
          title="Categorize File"
          label="Category"
          initial={modal.item.category}
          submitLabel="Save"
          suggestions={view.categories.map((c) => c.name)}
          validate={(v) => (v ? null : 'Please enter a category')}
          onSubmit={async (category) => {
            await categorizeFile(modal.item.id, category);
            toast.success(`Filed under "${category}"`, { duration: FILES_TOAST_MS });
            await view.refresh();
          }}
          onClose={() => setModal(null)}
        />
      )}
      {modal?.kind === 'share' && <ShareModal file={modal.file} onClose={() => setModal(null)} />}
      {modal?.kind === 'request' && (
        <Suspense fallback={null}>
          <RequestFilesModal folder={modal.folder} onClose={() => setModal(null)} />
        </Suspense>
      )}
      {modal?.kind === 'deleteFolder' && (
        <ConfirmDialog
          danger
          title="Delete Folder"
          confirmLabel="Delete Folder"
          onConfirm={() => deleteSequentially([modal.folder])}
          onClose={() => setModal(null)}
        >
          Delete the folder <strong className="text-text">{modal.folder.name}</strong>
          {modal.inside > 0 ? ` and the ${modal.inside} item(s) inside it` : ' (it is empty)'}? {TRASH_NOTE}
        </ConfirmDialog>
      )}
      {modal?.kind === 'deleteFiles' && (
        <ConfirmDialog
          danger
          title={modal.files.length === 1 ? 'Delete File' : 'Delete Files'}
          confirmLabel="Delete"
          onConfirm={() => deleteSequentially(modal.files)}
          onClose={() => setModal(null)}
        >
          {modal.files.length === 1 ? (
            <>
              Delete <strong className="text-text">{modal.files[0]!.name}</strong>? {TRASH_NOTE}
            </>
          ) : (
            `Delete these ${modal.files.length} ${modal.files.every((f) => f.type === 'file') ? 'files' : 'items'}? ${TRASH_NOTE}`
          )}
        </ConfirmDialog>
      )}
      {modal?.kind === 'move' && (
        <MoveDialog
          items={modal.items}
          startFolderId={view.folderId}
          onMove={(target) =>
            move(
              modal.items.map((i) => i.id),
              target,
            )
          }
          onClose={() => setModal(null)}
        />
      )}
      {preview && (
        <PreviewDialog
          files={preview.files}
          index={preview.index}
          onIndex={(index) => setPreview({ ...preview, index })}
          onClose={() => setPreview(null)}
          urlOf={previewFileUrl}
          onDownload={(f) => {
            const file = preview.files.find((x) => x.id === f.id) as FileItem | undefined;
            if (file) void downloadOne(file);
          }}
        />
      )}
    </Page>
  );
}

const TRASH_NOTE = `It goes to the trash, where it can be restored for ${TRASH_RETENTION_DAYS} days.`;

const IN_TRASH = `In the trash for ${TRASH_RETENTION_DAYS} days`;

const previewFileUrl = (file: PreviewFile) => previewUrl(file.id);

/** What the member reads: apiFetch has already put a server fault into friendly words (api/server-fault.ts). */
function errorText(e: unknown): string {
  return e instanceof Error && e.message ? e.message : 'Something went wrong. Try again in a moment.';
}

/** The member's own storage: used, and of how much when an admin or the host set a quota. */
function UsageLine({ usedBytes, quotaBytes }: { usedBytes: number; quotaBytes: number | null }) {
  const share = quotaBytes ? Math.min(1, usedBytes / quotaBytes) : 0;
  return (
    <div data-testid="files-usage" className="flex items-center gap-2 text-xs text-muted">
      <span>
        You use {formatFileSize(usedBytes)}
        {quotaBytes ? ` of ${formatFileSize(quotaBytes)}` : ''}
      </span>
      {quotaBytes ? (
        // The text beside it says the same; the bar is decoration for screen readers.
        <span aria-hidden="true" className="h-1.5 w-20 overflow-hidden rounded-full bg-surface-2">
          <span
            className={`block h-full ${share >= 0.9 ? 'bg-danger' : 'bg-brand'}`}
            style={{ width: `${Math.round(share * 100)}%` }}
          />
        </span>
      ) : null}
    </div>
  );
}

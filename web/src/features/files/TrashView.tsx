import {
  FILE_MANAGER_TEXTS,
  FILES_TEXTS,
  FILES_TOAST_MS,
  formatFileSize,
  ROOT_FOLDER_LABEL,
  type TrashItem,
} from '@guildhall/common';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { RotateCcw, Trash2, TriangleExclamationPoint } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { emptyTrash, fetchTrash, purgeFromTrash, restoreFromTrash } from './api.ts';
import { dateLabel } from './display.ts';
import { ItemIcon } from './ItemIcon.tsx';
import { FILES_KEY } from './useFilesView.ts';

const errorText = (e: unknown) => (e instanceof Error ? e.message : 'Try again in a moment');

/** What was deleted in the last 30 days: members restore it; admins delete it for good or empty the trash. */
export function TrashView({ canWrite, isAdmin }: { canWrite: boolean; isAdmin: boolean }) {
  const queryClient = useQueryClient();
  const trash = useQuery({ queryKey: [...FILES_KEY, 'trash'], queryFn: fetchTrash });
  const [confirm, setConfirm] = useState<{ kind: 'empty' } | { kind: 'purge'; item: TrashItem } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: FILES_KEY });

  if (trash.isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner className="size-8" />
      </div>
    );
  }
  if (trash.isError) {
    return (
      <div role="alert" className="flex flex-col items-center gap-3 py-14 text-center">
        <TriangleExclamationPoint className="size-10 text-danger" />
        <p>The trash could not be loaded: {errorText(trash.error)}</p>
        <Button variant="secondary" onClick={() => void trash.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  const items = trash.data.data;
  return (
    <div className="space-y-3" data-testid="trash">
      <div className="flex flex-wrap items-center gap-2">
        <p className="mr-auto text-sm text-muted">{FILE_MANAGER_TEXTS.trashNote}</p>
        {isAdmin && items.length > 0 && (
          <Button
            variant="danger"
            size="sm"
            onClick={() => setConfirm({ kind: 'empty' })}
            icon={<Trash2 className="size-4" />}
          >
            {FILE_MANAGER_TEXTS.emptyTrash}
          </Button>
        )}
      </div>
      {items.length === 0 ? (
        <p className="py-12 text-center text-muted">{FILE_MANAGER_TEXTS.trashEmpty}</p>
      ) : (
        <ul className="divide-y divide-border/60">
          {items.map((item) => (
            <li
              key={item.id}
              data-testid="trash-item"
              data-name={item.name}
              className="flex flex-wrap items-center gap-3 py-2.5"
            >
              <ItemIcon item={item} className="size-6" />
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium">{item.name}</p>
                <p className="truncate text-xs text-muted">
                  from {[ROOT_FOLDER_LABEL, ...item.originalPath.map((p) => p.name)].join(' › ')} ·{' '}
                  {formatFileSize(item.size)} · deleted {dateLabel(item.deletedAt)}
                  {item.deletedBy ? ` by ${item.deletedBy.username}` : ''} · removed for good{' '}
                  {dateLabel(item.purgeAt)}
                </p>
              </div>
              <div className="flex gap-1">
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={!canWrite}
                  icon={<RotateCcw className="size-4" />}
                  onClick={async () => {
                    try {
                      const res = await restoreFromTrash(item.id);
                      toast.success(res.message ?? `${FILE_MANAGER_TEXTS.restored} ${item.name}`, {
                        duration: FILES_TOAST_MS,
                      });
                      await refresh();
                    } catch (e) {
                      toast.error(FILE_MANAGER_TEXTS.restoreFailed, {
                        description: errorText(e),
                        duration: FILES_TOAST_MS,
                      });
                    }
                  }}
                >
                  {FILE_MANAGER_TEXTS.restore}
                </Button>
                {isAdmin && (
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`${FILE_MANAGER_TEXTS.deleteForever}: ${item.name}`}
                    title={FILE_MANAGER_TEXTS.deleteForever}
                    icon={<Trash2 className="size-4" />}
                    onClick={() => setConfirm({ kind: 'purge', item })}
                  />
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {confirm && (
        <ConfirmDialog
          danger
          title={confirm.kind === 'empty' ? FILE_MANAGER_TEXTS.emptyTrash : FILE_MANAGER_TEXTS.deleteForever}
          confirmLabel={
            confirm.kind === 'empty' ? FILE_MANAGER_TEXTS.emptyTrash : FILE_MANAGER_TEXTS.deleteForever
          }
          onConfirm={async () => {
            try {
              const { purgedItems } =
                confirm.kind === 'empty' ? await emptyTrash() : await purgeFromTrash(confirm.item.id);
              toast.success(`Deleted ${purgedItems} item(s) for good`, { duration: FILES_TOAST_MS });
            } catch (e) {
              toast.error(FILES_TEXTS.deleteFailed, { description: errorText(e), duration: FILES_TOAST_MS });
            }
            await refresh();
          }}
          onClose={() => setConfirm(null)}
        >
          {confirm.kind === 'empty'
            ? `Delete the ${items.length} item(s) in the trash for good? This cannot be undone.`
            : `Delete “${confirm.item.name}” for good? This cannot be undone.`}
        </ConfirmDialog>
      )}
    </div>
  );
}

import {
  FILES_TEXTS,
  SHARE_LINK_TEXTS,
  SHARED_PAGE_TOAST_MS,
  type SharedFileInfo,
  SharedFolderFilesResponse,
  sharedDownloadFailedText,
} from '@guildhall/common';
import { useQuery } from '@tanstack/react-query';
import { Download, FolderArchive } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { apiFetch } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { SharedNote } from './SharedNote.tsx';
import { Thumbnail } from './Thumbnail.tsx';
import { startBrowserDownload } from './useDownloads.ts';

type Props = {
  tokenPath: string;
  info: SharedFileInfo;
  headers: Record<string, string>;
  sizeText: (size: number | null) => string;
  onDownloaded: () => void;
};

/**
 * The shared page of a folder share (issue 45): the folder's files with their sizes and thumbnails,
 * a Download for each and one for all as a ZIP. Each download goes through a ticket, so the browser's
 * download manager streams it and a password is sent once, in a header.
 */
export function SharedFolderCard({ tokenPath, info, headers, sizeText, onDownloaded }: Props) {
  const [busy, setBusy] = useState<string | null>(null);
  const files = useQuery({
    queryKey: ['shared-folder', tokenPath, headers],
    queryFn: async () =>
      SharedFolderFilesResponse.parse(await apiFetch(`${tokenPath}/files`, { headers })).data,
    retry: false,
  });

  async function download(key: string, ticketPath: string, name: string) {
    setBusy(key);
    try {
      const res = await apiFetch<{ data: { url: string } }>(ticketPath, { method: 'POST', headers });
      startBrowserDownload(res.data.url, name);
      toast.success(FILES_TEXTS.downloadStarted, { duration: SHARED_PAGE_TOAST_MS });
      setTimeout(onDownloaded, 2000);
    } catch (e) {
      toast.error(sharedDownloadFailedText(e instanceof Error ? e.message : String(e)), {
        duration: SHARED_PAGE_TOAST_MS,
      });
    } finally {
      setBusy(null);
    }
  }

  const left =
    info.maxDownloads === null
      ? null
      : SHARE_LINK_TEXTS.downloadsLeft(Math.max(0, info.maxDownloads - info.downloadCount));
  return (
    <Card className="space-y-5">
      <div className="min-w-0">
        <p className="text-sm text-muted [overflow-wrap:anywhere]" data-testid="shared-title">
          {info.title ?? 'Shared folder'}
        </p>
        <h1 data-testid="shared-name" className="text-xl font-semibold [overflow-wrap:anywhere]">
          {info.name}
        </h1>
        <p className="text-sm text-muted" data-testid="shared-size">
          {files.data ? `${files.data.length} files · ` : ''}
          {sizeText(info.size)}
          {left ? ` · ${left}` : ''}
        </p>
      </div>
      {info.note && <SharedNote note={info.note} />}
      {files.isPending ? (
        <Spinner className="size-6" />
      ) : files.isError ? (
        <p role="alert" className="text-sm text-danger-text">
          {files.error instanceof Error ? files.error.message : 'Could not list the files'}
        </p>
      ) : files.data.length === 0 ? (
        <p className="text-sm text-muted">This folder is empty.</p>
      ) : (
        <ul
          className="divide-y divide-border rounded-xl border border-border"
          data-testid="shared-folder-files"
        >
          {files.data.map((f) => (
            <li key={f.id} className="flex items-center gap-3 px-3 py-2" data-testid="shared-folder-file">
              <Thumbnail
                item={{ id: f.id, name: f.name, type: 'file', sha256: null }}
                source={{ path: `${tokenPath}/files/${encodeURIComponent(f.id)}/thumbnail`, headers }}
                className="size-10 shrink-0 rounded-lg"
                iconClassName="size-5"
              />
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium" title={f.name}>
                  {f.name}
                </p>
                <p className="text-xs text-muted">{sizeText(f.size)}</p>
              </div>
              <Button
                variant="secondary"
                size="sm"
                aria-label={`Download ${f.name}`}
                disabled={busy !== null}
                onClick={() =>
                  void download(f.id, `${tokenPath}/files/${encodeURIComponent(f.id)}/ticket`, f.name)
                }
                icon={busy === f.id ? <Spinner className="size-4" /> : <Download className="size-4" />}
              />
            </li>
          ))}
        </ul>
      )}
      <Button
        size="lg"
        className="w-full"
        disabled={busy !== null || !files.data?.length}
        onClick={() => void download('zip', `${tokenPath}/archive-ticket`, `${info.name}.zip`)}
        icon={busy === 'zip' ? <Spinner className="size-4" /> : <FolderArchive className="size-5" />}
      >
        Download all as ZIP
      </Button>
    </Card>
  );
}

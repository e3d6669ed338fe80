import { FILE_MANAGER_TEXTS } from '@guildhall/common';
import { Download, FileArchive, FolderInput, Share2, Trash, X } from 'lucide-react';
import { Button } from '../../ui/Button.tsx';

/** Shown while files are selected: Download, Share and Delete (portal-tools §2). */
export function SelectionBar(props: {
  count: number;
  onDownload: () => void;
  onShare: () => void;
  onDelete: () => void;
  onClear: () => void;
  onZip: () => void;
  onMove: () => void;
  canWrite: boolean;
}) {
  return (
    <div
      data-testid="selection-bar"
      className="flex flex-wrap items-center gap-2 rounded-xl border border-brand/30 bg-brand/10 px-3 py-2"
    >
      <span className="mr-auto text-sm font-medium">{props.count} selected</span>
      <Button size="sm" variant="secondary" onClick={props.onDownload} icon={<Download className="size-4" />}>
        Download
      </Button>
      <Button size="sm" variant="secondary" onClick={props.onZip} icon={<FileArchive className="size-4" />}>
        <span className="max-sm:sr-only">{FILE_MANAGER_TEXTS.downloadZip}</span>
        <span className="sm:hidden" aria-hidden>
          ZIP
        </span>
      </Button>
      <Button
        size="sm"
        variant="secondary"
        onClick={props.onMove}
        disabled={!props.canWrite}
        icon={<FolderInput className="size-4" />}
      >
        {FILE_MANAGER_TEXTS.moveTo}
      </Button>
      <Button
        size="sm"
        variant="secondary"
        onClick={props.onShare}
        disabled={!props.canWrite}
        icon={<Share2 className="size-4" />}
      >
        Share
      </Button>
      <Button
        size="sm"
        variant="danger"
        onClick={props.onDelete}
        disabled={!props.canWrite}
        icon={<Trash className="size-4" />}
      >
        Delete
      </Button>
      <Button
        size="sm"
        variant="ghost"
        onClick={props.onClear}
        aria-label="Clear selection"
        icon={<X className="size-4" />}
      />
    </div>
  );
}

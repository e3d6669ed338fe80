import {
  FILE_MANAGER_TEXTS,
  type FileItem,
  formatFileSize,
  PREVIEW_TEXT_MAX_BYTES,
  type PreviewKind,
  previewKindOf,
} from '@guildhall/common';
import { ChevronLeft, ChevronRight, Download, FileQuestion, Minus, Plus, Scan, X } from 'lucide-react';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { Spinner } from '../../ui/Spinner.tsx';

/** What the viewer shows: a file's name and size, and how to get an address for its bytes. */
export type PreviewFile = Pick<FileItem, 'id' | 'name' | 'size'>;

const iconButton =
  'inline-flex size-9 items-center justify-center rounded-lg text-white/80 transition-colors hover:bg-white/10 hover:text-white disabled:opacity-30';

/**
 * The preview viewer: a full-window native <dialog> (Esc closes it, the page behind is inert), the file
 * shown by its kind, ← and → to the previous and next file. The bytes come from the preview route, which
 * serves them with the download's sandboxing CSP; SVG is shown only through <img>, text as text.
 */
export function PreviewDialog({
  files,
  index,
  onIndex,
  onClose,
  urlOf,
  onDownload,
}: {
  files: PreviewFile[];
  index: number;
  onIndex: (index: number) => void;
  onClose: () => void;
  /** The address of a file's preview (a ticket URL; never the session token). */
  urlOf: (file: PreviewFile) => Promise<string>;
  onDownload?: (file: PreviewFile) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const file = files[index];

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => {
      if (element?.open) element.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const go = (delta: number) => {
    if (files.length < 2) return;
    onIndex((index + delta + files.length) % files.length);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    // Arrow keys inside the video or audio player seek; in a text preview they scroll.
    const target = e.target as HTMLElement;
    if (target.closest('video, audio, pre, input')) return;
    if (e.key === 'ArrowRight') {
      e.preventDefault();
      go(1);
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      go(-1);
    }
  };

  if (!file) return null;
  return (
    <dialog
      ref={dialog}
      aria-label={`Preview of ${file.name}`}
      data-testid="preview"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onKeyDown={onKeyDown}
      className="m-0 size-full max-h-none max-w-none border-0 bg-black/90 p-0 text-white backdrop:bg-black/70"
    >
      <div className="flex h-full flex-col">
        <header className="flex items-center gap-2 px-3 py-2 sm:px-4">
          <div className="min-w-0 flex-1">
            <p className="truncate font-medium" title={file.name} data-testid="preview-name">
              {file.name}
            </p>
            <p className="text-xs text-white/60">
              {formatFileSize(file.size)}
              {files.length > 1 && ` · ${index + 1} of ${files.length}`}
            </p>
          </div>
          {onDownload && (
            <button
              type="button"
              className={iconButton}
              onClick={() => onDownload(file)}
              aria-label="Download"
            >
              <Download className="size-5" />
            </button>
          )}
          <button
            type="button"
            className={iconButton}
            onClick={onClose}
            aria-label="Close preview"
            data-autofocus
          >
            <X className="size-5" />
          </button>
        </header>
        <div className="relative min-h-0 flex-1">
          <PreviewBody key={file.id} file={file} urlOf={urlOf} onDownload={onDownload} />
          {files.length > 1 && (
            <>
              <button
                type="button"
                className={cn(iconButton, 'absolute top-1/2 left-2 -translate-y-1/2 bg-black/40')}
                onClick={() => go(-1)}
                aria-label="Previous file"
              >
                <ChevronLeft className="size-6" />
              </button>
              <button
                type="button"
                className={cn(iconButton, 'absolute top-1/2 right-2 -translate-y-1/2 bg-black/40')}
                onClick={() => go(1)}
                aria-label="Next file"
              >
                <ChevronRight className="size-6" />
              </button>
            </>
          )}
        </div>
      </div>
    </dialog>
  );
}

function PreviewBody({
  file,
  urlOf,
  onDownload,
}: {
  file: PreviewFile;
  urlOf: (file: PreviewFile) => Promise<string>;
  onDownload?: (file: PreviewFile) => void;
}) {
  const kind: PreviewKind = file.size === 0 ? 'none' : previewKindOf(file.name);
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (kind === 'none') return;
    let isLive = true;
    urlOf(file).then(
      (u) => isLive && setUrl(u),
      () => isLive && setFailed(true),
    );
    return () => {
      isLive = false;
    };
  }, [file, kind, urlOf]);

  if (kind === 'none' || failed) {
    return (
      <div className="flex h-full flex-col items-center justify-center gap-3 p-6 text-center">
        <FileQuestion className="size-12 text-white/50" />
        <p data-testid="no-preview">
          {failed ? FILE_MANAGER_TEXTS.previewFailed : FILE_MANAGER_TEXTS.noPreview}
        </p>
        {onDownload && (
          <Button onClick={() => onDownload(file)} icon={<Download className="size-4" />}>
            Download
          </Button>
        )}
      </div>
    );
  }
  if (!url) {
    return (
      <div className="flex h-full items-center justify-center">
        <Spinner className="size-8" />
      </div>
    );
  }
  switch (kind) {
    case 'image':
      return <ZoomableImage src={url} name={file.name} onError={() => setFailed(true)} />;
    case 'video':
      return (
        // biome-ignore lint/a11y/useMediaCaption: members' own videos come without caption tracks
        <video
          src={url}
          controls
          autoPlay
          data-testid="preview-video"
          className="mx-auto h-full max-w-full"
          onError={() => setFailed(true)}
        />
      );
    case 'audio':
      return (
        <div className="flex h-full items-center justify-center p-6">
          {/* biome-ignore lint/a11y/useMediaCaption: members' own audio comes without captions */}
          <audio src={url} controls autoPlay data-testid="preview-audio" className="w-full max-w-xl" />
        </div>
      );
    case 'pdf':
      return (
        <iframe
          src={url}
          title={file.name}
          className="size-full border-0 bg-white"
          data-testid="preview-pdf"
        />
      );
    case 'text':
      return <TextPreview url={url} />;
  }
}

/** Fit to the window, or actual size and larger (a click on the image, or the buttons), scrolling to pan. */
function ZoomableImage({ src, name, onError }: { src: string; name: string; onError: () => void }) {
  const [zoom, setZoom] = useState<number | 'fit'>('fit');
  const step = (factor: number) =>
    setZoom((z) => Math.min(8, Math.max(0.25, (z === 'fit' ? 1 : z) * factor)));
  return (
    <div className="flex h-full flex-col">
      <div
        className={cn('min-h-0 flex-1 overflow-auto', zoom === 'fit' && 'flex items-center justify-center')}
      >
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: a mouse shortcut; the zoom buttons below do the same by keyboard */}
        <img
          src={src}
          alt={name}
          data-testid="preview-image"
          onError={onError}
          onClick={() => setZoom((z) => (z === 'fit' ? 1 : 'fit'))}
          className={cn(
            'select-none',
            zoom === 'fit'
              ? 'max-h-full max-w-full cursor-zoom-in object-contain'
              : 'max-w-none cursor-zoom-out',
          )}
          style={zoom === 'fit' ? undefined : { width: `${zoom * 100}%` }}
        />
      </div>
      <div className="flex items-center justify-center gap-1 py-2">
        <button type="button" className={iconButton} onClick={() => step(0.8)} aria-label="Zoom out">
          <Minus className="size-4" />
        </button>
        <button
          type="button"
          className={iconButton}
          onClick={() => setZoom('fit')}
          aria-label="Fit to window"
        >
          <Scan className="size-4" />
        </button>
        <button type="button" className={iconButton} onClick={() => step(1.25)} aria-label="Zoom in">
          <Plus className="size-4" />
        </button>
        <span className="w-14 text-center text-xs text-white/60">
          {zoom === 'fit' ? 'Fit' : `${Math.round(zoom * 100)}%`}
        </span>
      </div>
    </div>
  );
}

/** The first PREVIEW_TEXT_MAX_BYTES of a text file, as text (never rendered), with a note when cut. */
function TextPreview({ url }: { url: string }) {
  const [text, setText] = useState<{ body: string; isCut: boolean } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const abort = new AbortController();
    fetch(url, { headers: { range: `bytes=0-${PREVIEW_TEXT_MAX_BYTES - 1}` }, signal: abort.signal })
      .then(async (res) => {
        if (!res.ok) throw new Error(String(res.status));
        const total = Number(res.headers.get('content-range')?.split('/')[1] ?? 0);
        const body = new TextDecoder('utf-8', { fatal: false }).decode(await res.arrayBuffer());
        setText({ body, isCut: total > PREVIEW_TEXT_MAX_BYTES });
      })
      .catch(() => !abort.signal.aborted && setFailed(true));
    return () => abort.abort();
  }, [url]);
  if (failed) return <p className="p-6 text-center">{FILE_MANAGER_TEXTS.previewFailed}</p>;
  if (!text) {
    return (
      <div className="flex h-full items-center justify-center">
        <Spinner className="size-8" />
      </div>
    );
  }
  return (
    <div className="flex h-full flex-col">
      {text.isCut && (
        <p className="px-4 py-1 text-xs text-warning-text">{FILE_MANAGER_TEXTS.previewTooLarge}</p>
      )}
      <pre
        data-testid="preview-text"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users scroll long text
        tabIndex={0}
        className="mx-auto size-full max-w-5xl overflow-auto bg-black/40 p-4 font-mono text-xs whitespace-pre-wrap text-white/90"
      >
        {text.body}
      </pre>
    </div>
  );
}

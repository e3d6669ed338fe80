import {
  BULK_DOWNLOAD_GAP_MS,
  DOWNLOAD_CARD_ERROR_MS,
  DOWNLOAD_CARD_SUCCESS_MS,
  downloadFailedText,
  FILES_TEXTS,
  FILES_TOAST_MS,
  type FileItem,
} from '@guildhall/common';
import { useCallback } from 'react';
import { toast } from 'sonner';
import { downloadTicket } from './api.ts';
import { cardId, type ProgressCard } from './progress-cards.ts';

type CardApi = {
  add: (card: ProgressCard) => void;
  update: (id: string, patch: Partial<ProgressCard>) => void;
  removeLater: (id: string, ms: number) => void;
};

/**
 * Hands a URL to the browser's own download manager: the file streams to disk (resumable, never held
 * in page memory) and the session token never appears in a URL.
 */
export function startBrowserDownload(url: string, name: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Downloads with progress cards (portal-tools §4): downloading → completed (3 s) or error (5 s). */
export function useDownloads(cards: CardApi) {
  const downloadOne = useCallback(
    async (file: FileItem): Promise<boolean> => {
      const id = cardId('down');
      cards.add({ id, kind: 'download', name: file.name, progress: 0, state: 'active' });
      try {
        const ticket = await downloadTicket(file.id);
        startBrowserDownload(ticket.url, file.name);
        cards.update(id, { state: 'completed', progress: 100 });
        cards.removeLater(id, DOWNLOAD_CARD_SUCCESS_MS);
        return true;
      } catch (e) {
        const message = downloadFailedText(e instanceof Error ? e.message : FILES_TEXTS.downloadFailedToast);
        cards.update(id, { state: 'error', message });
        toast.error(FILES_TEXTS.downloadFailedToast, { description: message, duration: FILES_TOAST_MS });
        cards.removeLater(id, DOWNLOAD_CARD_ERROR_MS);
        return false;
      }
    },
    [cards],
  );

  /** One after another, 0.5 s apart (portal-tools §4). */
  const downloadMany = useCallback(
    async (files: FileItem[]) => {
      for (const [i, file] of files.entries()) {
        if (i > 0) await sleep(BULK_DOWNLOAD_GAP_MS);
        await downloadOne(file);
      }
    },
    [downloadOne],
  );

  return { downloadOne, downloadMany };
}

import {
  FILES_TEXTS,
  FILES_TOAST_MS,
  type FileItem,
  failedToUploadText,
  UPLOAD_CARD_REMOVE_MS,
  UPLOAD_REFRESH_DELAY_MS,
} from '@guildhall/common';
import { useCallback, useRef } from 'react';
import { toast } from 'sonner';
import { useAuth } from '../../auth/useAuth.ts';
import { cardId, type ProgressCard } from './progress-cards.ts';
import { runUpload, UploadError, type UploadTarget } from './upload-task.ts';

/** Uploads running at once; the rest wait their turn (their cards show 0 meanwhile). */
const PARALLEL_UPLOADS = 2;
const ERROR_CARD_MS = 5000;

type CardApi = {
  add: (card: ProgressCard) => void;
  update: (id: string, patch: Partial<ProgressCard>) => void;
  removeLater: (id: string, ms: number) => void;
};

/**
 * Queues files for upload and drives their progress cards; `onUploaded` runs 1.5 s after each
 * completion (the list refresh of portal-tools §4).
 */
export function useUploads(
  cards: CardApi,
  opts: { maxUploadBytes: number | null; onUploaded: (item: FileItem) => void },
) {
  const { token } = useAuth();
  const queue = useRef<{ file: File; target: UploadTarget; id: string }[]>([]);
  const running = useRef(0);
  const latest = useRef({ token, opts });
  latest.current = { token, opts };

  const pump = useCallback(() => {
    while (running.current < PARALLEL_UPLOADS && queue.current.length > 0) {
      const job = queue.current.shift()!;
      running.current += 1;
      const { token: t, opts: o } = latest.current;
      runUpload(job.file, job.target, {
        token: t,
        maxUploadBytes: o.maxUploadBytes,
        onProgress: (p) =>
          cards.update(job.id, {
            progress: p.progress,
            sentBytes: p.sentBytes,
            reconnecting: p.reconnecting,
          }),
      })
        .then((item) => {
          cards.update(job.id, { state: 'completed', progress: 100 });
          setTimeout(() => latest.current.opts.onUploaded(item), UPLOAD_REFRESH_DELAY_MS);
          cards.removeLater(job.id, UPLOAD_CARD_REMOVE_MS);
        })
        .catch((e: unknown) => {
          const message =
            e instanceof UploadError || e instanceof Error ? e.message : FILES_TEXTS.uploadFailedToast;
          cards.update(job.id, { state: 'error', message });
          toast.error(failedToUploadText(job.file.name), { description: message, duration: FILES_TOAST_MS });
          cards.removeLater(job.id, ERROR_CARD_MS);
        })
        .finally(() => {
          running.current -= 1;
          pump();
        });
    }
  }, [cards]);

  return useCallback(
    (files: File[], target: UploadTarget) => {
      for (const file of files) {
        const id = cardId('up');
        cards.add({
          id,
          kind: 'upload',
          name: file.name,
          progress: 0,
          sentBytes: 0,
          totalBytes: file.size,
          state: 'active',
        });
        queue.current.push({ file, target, id });
      }
      pump();
    },
    [cards, pump],
  );
}

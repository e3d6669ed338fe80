import { formatFileSize, RECONNECTING_TEXT, UPLOAD_PROGRESS, uploadStageText } from '@guildhall/common';

/** A floating progress card (portal-tools §2, §4): one per upload or download. */
export type ProgressCard = {
  id: string;
  kind: 'upload' | 'download';
  name: string;
  /** 0–100 for uploads; downloads have no byte progress here (the browser's download manager shows it). */
  progress: number;
  /** Upload only: bytes of the request body sent so far, and the file size. */
  sentBytes?: number;
  totalBytes?: number;
  state: 'active' | 'completed' | 'error';
  /** A resumable upload lost its connection and is about to continue ("Reconnecting…"). */
  reconnecting?: boolean;
  message?: string;
};

let seq = 0;
export const cardId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;

/**
 * The line under a transfer: the spec's stage texts, except while the file's bytes are still being
 * sent, where "Processing file..." with "0 Bytes" read as stuck (issue 17): it says Sending and shows
 * the bytes once some have gone.
 */
export function cardLine(card: ProgressCard): { text: string; bytes: string | null } {
  const isUpload = card.kind === 'upload';
  if (card.state === 'error') return { text: card.message ?? 'Failed', bytes: null };
  if (card.state === 'completed')
    return { text: isUpload ? 'Upload complete' : 'Download started', bytes: null };
  if (!isUpload) return { text: 'Downloading...', bytes: null };
  if (card.reconnecting) return { text: RECONNECTING_TEXT, bytes: null };
  const total = card.totalBytes;
  const sent = card.sentBytes ?? 0;
  const isSending = total !== undefined && sent < total && card.progress < UPLOAD_PROGRESS.accepted;
  if (!isSending) return { text: uploadStageText(card.progress), bytes: null };
  return {
    text: 'Sending file...',
    bytes: sent > 0 ? `${formatFileSize(sent)} / ${formatFileSize(total)}` : formatFileSize(total),
  };
}

import { CHUNK_SIZE_BYTES, RESUMABLE_UPLOAD_PATH } from '@guildhall/common';
import { sendWithTus } from '../../api/tus-send.ts';
import type { SendResult, UploadTarget } from './upload-task.ts';

/**
 * Sends a member's file with tus (api/tus-send.ts: 8 MiB chunks, retried while the connection or the
 * server is away, "Reconnecting…" on the card meanwhile, resumed after a reload). Answers like POST
 * /upload, so the rest of the spec's flow (status, complete) is the same.
 */
export async function sendResumable(
  file: File,
  target: UploadTarget,
  token: string | null,
  onSent: (loaded: number, total: number) => void,
  onReconnecting: (reconnecting: boolean) => void,
): Promise<SendResult> {
  const metadata: Record<string, string> = { filename: file.name };
  if (target.folderId) metadata.folderId = target.folderId;
  if (target.category) metadata.category = target.category;
  const sent = await sendWithTus(file, {
    endpoint: `${window.location.origin}${RESUMABLE_UPLOAD_PATH}`,
    metadata,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    onProgress: onSent,
    onReconnecting,
  });
  // tus's message is a developer's line (method, URL, raw response text), not a status text: the card
  // reads the body's error or "HTTP {status}" instead (upload-task.ts, api/server-fault.ts).
  if (!sent.ok) return { status: sent.status, statusText: '', body: sent.body };
  return {
    status: 200,
    statusText: 'OK',
    body: JSON.stringify({
      success: true,
      fileId: sent.url.split('/').at(-1) ?? '',
      totalChunks: Math.ceil(file.size / CHUNK_SIZE_BYTES),
    }),
  };
}

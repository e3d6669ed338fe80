import { CHUNK_SIZE_BYTES, RESUMABLE_RETRY_DELAYS_MS, RESUMABLE_UPLOAD_PATH } from '@guildhall/common';
import type { DetailedError } from 'tus-js-client';
import type { SendResult, UploadTarget } from './upload-task.ts';

/**
 * Sends a file with the tus protocol (docs/files.md, "Resumable uploads"): one 8 MiB chunk per request,
 * so a dropped connection costs at most the chunk in flight. On a network error or a 5xx it waits
 * (RESUMABLE_RETRY_DELAYS_MS), asks the server how much it has and goes on from there; the card says
 * "Reconnecting…" meanwhile. An upload cut off by a reload resumes too (tus-js-client keeps its URL in
 * localStorage). Answers like POST /upload, so the rest of the spec's flow (status, complete) is the same.
 */
export async function sendResumable(
  file: File,
  target: UploadTarget,
  token: string | null,
  onSent: (loaded: number, total: number) => void,
  onReconnecting: (reconnecting: boolean) => void,
): Promise<SendResult> {
  // tus-js-client (≈14 KB compressed) loads with the first upload, not with the files page: a cold
  // /filesystem stays within its 250 KB (issue 31).
  const tus = await import('tus-js-client');
  return new Promise((resolve) => {
    let reconnecting = false;
    const setReconnecting = (value: boolean) => {
      if (reconnecting === value) return;
      reconnecting = value;
      onReconnecting(value);
    };
    const metadata: Record<string, string> = { filename: file.name };
    if (target.folderId) metadata.folderId = target.folderId;
    if (target.category) metadata.category = target.category;
    const upload = new tus.Upload(file, {
      endpoint: `${window.location.origin}${RESUMABLE_UPLOAD_PATH}`,
      chunkSize: CHUNK_SIZE_BYTES,
      retryDelays: [...RESUMABLE_RETRY_DELAYS_MS],
      metadata,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => {
        if (sent > 0) setReconnecting(false);
        onSent(sent, total);
      },
      onChunkComplete: () => setReconnecting(false),
      onShouldRetry: (err) => {
        const status = err.originalResponse?.getStatus() ?? 0;
        // Lost connections and server trouble are retried; a refusal (4xx) is final, as the server said why.
        const retry = status === 0 || status >= 500 || status === 409 || status === 423;
        if (retry) setReconnecting(true);
        return retry;
      },
      onError: (err) => {
        const res = (err as DetailedError).originalResponse;
        // tus's message is a developer's line (method, URL, raw response text), not a status text: the
        // card reads the body's error or "HTTP {status}" instead (upload-task.ts, api/server-fault.ts).
        resolve({ status: res?.getStatus() ?? 0, statusText: '', body: res?.getBody() ?? '' });
      },
      onSuccess: () => {
        const fileId = upload.url?.split('/').at(-1) ?? '';
        resolve({
          status: 200,
          statusText: 'OK',
          body: JSON.stringify({
            success: true,
            fileId,
            totalChunks: Math.ceil(file.size / CHUNK_SIZE_BYTES),
          }),
        });
      },
    });
    // An earlier attempt at the same file (a reload, a crash) continues where the server has it.
    upload
      .findPreviousUploads()
      .then((previous) => {
        const last = previous.at(-1);
        if (last) upload.resumeFromPreviousUpload(last);
      })
      .catch(() => {})
      .finally(() => upload.start());
  });
}

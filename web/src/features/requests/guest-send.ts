import { CHUNK_SIZE_BYTES, RESUMABLE_RETRY_DELAYS_MS, uploadRequestTusPath } from '@guildhall/common';
import * as tus from 'tus-js-client';
import { passwordHeaders } from './api.ts';

export type GuestSendResult = { ok: true; url: string } | { ok: false; message: string };

/** The server's message from an error body (the API's envelope), else the status. */
export function refusalMessage(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    if (typeof parsed.error === 'string' && parsed.error) return parsed.error;
  } catch {
    // not JSON
  }
  return status === 0 ? 'The connection to the portal was lost' : `HTTP ${status}`;
}

/**
 * Sends one file to an upload link with tus, as the files page does for members (one 8 MiB chunk per
 * request; a dropped connection is retried, asking the server where it stands, with "Reconnecting…"
 * shown meanwhile; a refusal (4xx) is final and its message shown). Nothing signs it in: the link's
 * token is in the address, its password (if any) in a header.
 */
export function sendToRequest(
  file: File,
  token: string,
  password: string | null,
  onProgress: (sent: number, total: number) => void,
  onReconnecting: (reconnecting: boolean) => void,
): Promise<GuestSendResult> {
  return new Promise((resolve) => {
    const upload = new tus.Upload(file, {
      endpoint: `${window.location.origin}${uploadRequestTusPath(encodeURIComponent(token))}`,
      chunkSize: CHUNK_SIZE_BYTES,
      retryDelays: [...RESUMABLE_RETRY_DELAYS_MS],
      metadata: { filename: file.name, filetype: file.type },
      headers: passwordHeaders(password),
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => {
        if (sent > 0) onReconnecting(false);
        onProgress(sent, total);
      },
      onChunkComplete: () => onReconnecting(false),
      onShouldRetry: (err) => {
        const status = err.originalResponse?.getStatus() ?? 0;
        const retry = status === 0 || status >= 500 || status === 409 || status === 423;
        if (retry) onReconnecting(true);
        return retry;
      },
      onError: (err) => {
        const res = (err as tus.DetailedError).originalResponse;
        resolve({ ok: false, message: refusalMessage(res?.getStatus() ?? 0, res?.getBody() ?? '') });
      },
      onSuccess: () => resolve({ ok: true, url: upload.url ?? '' }),
    });
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

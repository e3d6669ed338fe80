import { CHUNK_SIZE_BYTES, RESUMABLE_RETRY_DELAYS_MS } from '@guildhall/common';
import type { DetailedError } from 'tus-js-client';

export type TusSendOptions = {
  /** The tus creation URL (absolute). */
  endpoint: string;
  metadata: Record<string, string>;
  headers: Record<string, string>;
  onProgress: (sent: number, total: number) => void;
  /** True while a dropped connection or a 5xx is being retried, false once bytes flow again. */
  onReconnecting: (reconnecting: boolean) => void;
};

/** How a tus upload ended: its URL, or the server's last answer (status 0: no answer at all). */
export type TusSendResult = { ok: true; url: string } | { ok: false; status: number; body: string };

/**
 * Sends a file with the tus protocol, as members' uploads and guests' upload links both do (docs/files.md,
 * "Resumable uploads"): one 8 MiB chunk per request, so a dropped connection costs at most the chunk in
 * flight; lost connections and server trouble are retried after RESUMABLE_RETRY_DELAYS_MS (reconnecting
 * meanwhile), a refusal (4xx) is final; an earlier attempt at the same file (a reload, a crash) continues
 * where the server has it. tus-js-client (≈14 KB compressed) loads with the first upload, not with the page.
 */
export async function sendWithTus(file: File, options: TusSendOptions): Promise<TusSendResult> {
  const tus = await import('tus-js-client');
  return new Promise((resolve) => {
    let reconnecting = false;
    const setReconnecting = (value: boolean) => {
      if (reconnecting === value) return;
      reconnecting = value;
      options.onReconnecting(value);
    };
    const upload = new tus.Upload(file, {
      endpoint: options.endpoint,
      chunkSize: CHUNK_SIZE_BYTES,
      retryDelays: [...RESUMABLE_RETRY_DELAYS_MS],
      metadata: options.metadata,
      headers: options.headers,
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => {
        if (sent > 0) setReconnecting(false);
        options.onProgress(sent, total);
      },
      onChunkComplete: () => setReconnecting(false),
      onShouldRetry: (err) => {
        const status = err.originalResponse?.getStatus() ?? 0;
        const retry = status === 0 || status >= 500 || status === 409 || status === 423;
        if (retry) setReconnecting(true);
        return retry;
      },
      onError: (err) => {
        const res = (err as DetailedError).originalResponse;
        resolve({ ok: false, status: res?.getStatus() ?? 0, body: res?.getBody() ?? '' });
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

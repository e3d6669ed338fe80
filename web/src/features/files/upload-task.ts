import {
  FILES_TEXTS,
  type FileItem,
  formatFileSize,
  processingProgress,
  TEXTS,
  UPLOAD_PROGRESS,
  UPLOAD_STATUS_MAX_ATTEMPTS,
  UPLOAD_STATUS_POLL_MS,
  UPLOAD_STATUS_RETRY_MS,
  UploadStartResponse,
  uploadFailedText,
} from '@guildhall/common';
import { shownServerMessage } from '../../api/server-fault.ts';
import { completeUpload, uploadStatus } from './api.ts';
import { sendResumable } from './resumable-send.ts';

/** An upload failure whose message is the card's text (portal-tools §8). */
export class UploadError extends Error {}

/** `reconnecting`: a resumable upload lost its connection and is about to continue. */
export type UploadProgress = { progress: number; sentBytes: number; reconnecting?: boolean };

export type UploadTarget = { folderId: string | null; category: string | null };

export type UploadDeps = {
  send: (
    form: FormData,
    token: string | null,
    onSent: (loaded: number, total: number) => void,
  ) => Promise<SendResult>;
  /** When present, the file goes by the resumable protocol instead of `send` (the page's default). */
  sendResumable?: typeof sendResumable;
  status: typeof uploadStatus;
  complete: typeof completeUpload;
  sleep: (ms: number) => Promise<void>;
};

export type SendResult = { status: number; statusText: string; body: string };

/**
 * The spec's upload (portal-tools §4, §7): 15 once the request is sent (then real byte progress up to
 * 35 while the body goes out), 35 when the server accepts, status polled every 0.8 s (at most 60
 * times, 1 s after a failed poll) with its progress mapped onto 35–95, then complete → 100.
 */
export async function runUpload(
  file: File,
  target: UploadTarget,
  opts: { token: string | null; maxUploadBytes: number | null; onProgress: (p: UploadProgress) => void },
  deps: UploadDeps = defaultDeps,
): Promise<FileItem> {
  if (opts.maxUploadBytes !== null && file.size > opts.maxUploadBytes) {
    throw new UploadError(
      uploadFailedText(`File is too large (the limit is ${formatFileSize(opts.maxUploadBytes)})`),
    );
  }
  const form = new FormData();
  if (target.category) form.append('category', target.category);
  if (target.folderId) form.append('folderId', target.folderId);
  form.append('file', file, file.name);

  const { sent, accepted } = UPLOAD_PROGRESS;
  opts.onProgress({ progress: sent, sentBytes: 0 });
  let last: UploadProgress = { progress: sent, sentBytes: 0 };
  const onSent = (loaded: number, total: number) => {
    const share = total > 0 ? Math.min(1, loaded / total) : 1;
    last = {
      progress: Math.round(sent + share * (accepted - sent - 1)),
      sentBytes: Math.min(loaded, file.size),
    };
    opts.onProgress(last);
  };
  const res = deps.sendResumable
    ? await deps.sendResumable(file, target, opts.token, onSent, (reconnecting) =>
        opts.onProgress({ ...last, reconnecting }),
      )
    : await deps.send(form, opts.token, onSent);
  if (res.status < 200 || res.status >= 300) throw new UploadError(uploadFailedText(failureText(res)));
  const start = UploadStartResponse.safeParse(safeJson(res.body));
  if (!start.success) throw new UploadError(uploadFailedText(TEXTS.unexpectedError));
  const { fileId, totalChunks } = start.data;
  opts.onProgress({ progress: accepted, sentBytes: file.size });

  let completed = false;
  for (let attempt = 1; attempt <= UPLOAD_STATUS_MAX_ATTEMPTS; attempt++) {
    try {
      const s = await deps.status(fileId);
      opts.onProgress({ progress: processingProgress(s.progress), sentBytes: file.size });
      if (s.completed) {
        completed = true;
        break;
      }
      await deps.sleep(UPLOAD_STATUS_POLL_MS);
    } catch {
      await deps.sleep(UPLOAD_STATUS_RETRY_MS);
    }
  }
  if (!completed) throw new UploadError(FILES_TEXTS.uploadTimeout);

  try {
    const item = await deps.complete({ fileId, fileName: file.name, fileSize: file.size, totalChunks });
    opts.onProgress({ progress: UPLOAD_PROGRESS.done, sentBytes: file.size });
    return item;
  } catch (e) {
    throw new UploadError(uploadFailedText(e instanceof Error ? e.message : TEXTS.unexpectedError));
  }
}

/** The server's own error text when there is one (it says why), else the status text. */
function failureText(res: SendResult): string {
  if (res.status === 0) return TEXTS.networkError;
  const body = safeJson(res.body) as { error?: unknown; code?: unknown } | null;
  if (body && typeof body.error === 'string') {
    return shownServerMessage(res.status, body.error, typeof body.code === 'string' ? body.code : undefined);
  }
  return res.statusText || `HTTP ${res.status}`;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** XMLHttpRequest, not fetch: only it reports how much of the request body has been sent. */
function sendWithXhr(
  form: FormData,
  token: string | null,
  onSent: (loaded: number, total: number) => void,
): Promise<SendResult> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/upload');
    xhr.setRequestHeader('accept', 'application/json');
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => onSent(e.loaded, e.lengthComputable ? e.total : 0);
    xhr.onload = () => resolve({ status: xhr.status, statusText: xhr.statusText, body: xhr.responseText });
    xhr.onerror = () => resolve({ status: 0, statusText: '', body: '' });
    xhr.onabort = () => resolve({ status: 0, statusText: 'Aborted', body: '' });
    xhr.send(form);
  });
}

const defaultDeps: UploadDeps = {
  send: sendWithXhr,
  sendResumable,
  status: uploadStatus,
  complete: completeUpload,
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

import {
  type FileItem,
  formatFileSize,
  SHARE_PASSWORD_MIN_CHARS,
  SHARE_TOAST_MS,
  UPLOAD_REQUEST_MAX_DAYS,
  UPLOAD_REQUEST_TEXTS,
  type UploadRequest,
} from '@guildhall/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Inbox, XCircle } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { inputClass, Modal } from '../../ui/Modal.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { dateLabel } from './display.ts';
import { closeUploadRequest, createUploadRequest, fetchUploadRequests } from './request-api.ts';
import { FILES_KEY } from './useFilesView.ts';

const MB = 1024 * 1024;
const EXPIRY_DAYS = [1, 7, 30, UPLOAD_REQUEST_MAX_DAYS] as const;
const REQUESTS_KEY = [...FILES_KEY, 'upload-requests'];

const stateTone = { open: 'success', closed: 'neutral', expired: 'warning', full: 'brand' } as const;

/**
 * "Request files" on one of the member's own folders (issue 45): a link anyone can upload into, with its
 * limits, and the folder's links with what each received; any can be closed at once.
 */
export function RequestFilesModal({ folder, onClose }: { folder: FileItem; onClose: () => void }) {
  const queryClient = useQueryClient();
  const requests = useQuery({ queryKey: REQUESTS_KEY, queryFn: fetchUploadRequests });
  const mine = (requests.data ?? []).filter((r) => r.folderId === folder.id);
  const refresh = () => queryClient.invalidateQueries({ queryKey: REQUESTS_KEY });
  return (
    <Modal title={UPLOAD_REQUEST_TEXTS.title} onClose={onClose} className="max-w-lg">
      <p className="-mt-2 mb-4 truncate text-sm text-muted" title={folder.name}>
        Into {folder.name}
      </p>
      <CreateRequestForm folder={folder} onCreated={refresh} />
      <h3 className="mb-2 mt-6 text-sm font-semibold">Links for this folder ({mine.length})</h3>
      {requests.isPending ? (
        <Spinner className="size-5" />
      ) : mine.length === 0 ? (
        <p className="text-sm text-muted">No upload links yet.</p>
      ) : (
        <ul className="space-y-2" data-testid="request-list">
          {mine.map((r) => (
            <RequestRow key={r.id} request={r} onChanged={refresh} />
          ))}
        </ul>
      )}
    </Modal>
  );
}

function CreateRequestForm({ folder, onCreated }: { folder: FileItem; onCreated: () => Promise<void> }) {
  const [title, setTitle] = useState('');
  const [note, setNote] = useState('');
  const [maxMb, setMaxMb] = useState('100');
  const [maxFiles, setMaxFiles] = useState('10');
  const [types, setTypes] = useState('');
  const [days, setDays] = useState<number>(7);
  const [password, setPassword] = useState('');
  const [notify, setNotify] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({ mutationFn: createUploadRequest });

  async function submit(e: FormEvent) {
    e.preventDefault();
    const bytes = Math.round(Number(maxMb) * MB);
    const files = Number(maxFiles);
    if (!Number.isFinite(bytes) || bytes < 1) return setError('The size limit is a number of MB above 0.');
    if (!Number.isInteger(files) || files < 1)
      return setError('The file limit is a whole number of at least 1.');
    if (password && password.length < SHARE_PASSWORD_MIN_CHARS) {
      return setError(`The password needs at least ${SHARE_PASSWORD_MIN_CHARS} characters (or none).`);
    }
    setError(null);
    try {
      const made = await create.mutateAsync({
        folderId: folder.id,
        title: title.trim() || undefined,
        note: note.trim() || undefined,
        maxTotalBytes: bytes,
        maxFiles: files,
        allowedTypes: types
          .split(/[\s,]+/)
          .map((t) => t.trim())
          .filter(Boolean),
        expiresAt: new Date(Date.now() + days * 24 * 60 * 60_000).toISOString(),
        password: password || undefined,
        notify,
      });
      await navigator.clipboard?.writeText(made.url).catch(() => undefined);
      toast.success(UPLOAD_REQUEST_TEXTS.created, { description: made.url, duration: SHARE_TOAST_MS });
      setTitle('');
      setNote('');
      setPassword('');
      await onCreated();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  return (
    <form onSubmit={submit} className="space-y-3">
      <label className="block text-sm">
        <span className="mb-1 block text-muted">Title shown to the guest</span>
        <input
          className={inputClass}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          data-testid="request-new-title"
        />
      </label>
      <label className="block text-sm">
        <span className="mb-1 block text-muted">Note</span>
        <textarea
          className={`${inputClass} h-20 py-2`}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          data-testid="request-new-note"
        />
      </label>
      <div className="grid grid-cols-2 gap-3">
        <label className="block text-sm">
          <span className="mb-1 block text-muted">Size limit (MB)</span>
          <input
            className={inputClass}
            inputMode="decimal"
            value={maxMb}
            onChange={(e) => setMaxMb(e.target.value)}
            data-testid="request-new-size"
          />
        </label>
        <label className="block text-sm">
          <span className="mb-1 block text-muted">Files at most</span>
          <input
            className={inputClass}
            inputMode="numeric"
            value={maxFiles}
            onChange={(e) => setMaxFiles(e.target.value)}
            data-testid="request-new-files"
          />
        </label>
        <label className="block text-sm">
          <span className="mb-1 block text-muted">Types (empty: any)</span>
          <input
            className={inputClass}
            placeholder=".pdf, image/*"
            value={types}
            onChange={(e) => setTypes(e.target.value)}
            data-testid="request-new-types"
          />
        </label>
        <label className="block text-sm">
          <span className="mb-1 block text-muted">Open for</span>
          <select className={inputClass} value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {EXPIRY_DAYS.map((d) => (
              <option key={d} value={d}>
                {d === 1 ? '1 day' : `${d} days`}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="block text-sm">
        <span className="mb-1 block text-muted">Password (optional)</span>
        <input
          type="password"
          autoComplete="new-password"
          className={inputClass}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          className="size-4 accent-brand"
          checked={notify}
          onChange={(e) => setNotify(e.target.checked)}
        />
        {UPLOAD_REQUEST_TEXTS.noNotice}
      </label>
      {error && (
        <p role="alert" className="text-sm text-danger-text">
          {error}
        </p>
      )}
      <Button
        type="submit"
        className="w-full"
        disabled={create.isPending}
        icon={<Inbox className="size-4" />}
      >
        {UPLOAD_REQUEST_TEXTS.create}
      </Button>
    </form>
  );
}

function RequestRow({ request, onChanged }: { request: UploadRequest; onChanged: () => Promise<void> }) {
  const close = useMutation({ mutationFn: () => closeUploadRequest(request.id) });
  return (
    <li className="rounded-xl border border-border bg-bg/40 px-3 py-2.5 text-sm" data-testid="request-row">
      <div className="flex items-center justify-between gap-2">
        <span className="min-w-0 truncate font-medium">{request.title ?? 'Upload link'}</span>
        <Badge tone={stateTone[request.state]}>{UPLOAD_REQUEST_TEXTS.stateLabels[request.state]}</Badge>
      </div>
      <p className="mt-1 text-xs text-muted" data-testid="request-row-received">
        {request.filesReceived} of {request.maxFiles} files · {formatFileSize(request.bytesReceived)} of{' '}
        {formatFileSize(request.maxTotalBytes)} · until {dateLabel(request.expiresAt)}
      </p>
      <div className="mt-2 flex items-center gap-2">
        <code className="min-w-0 flex-1 truncate rounded bg-surface-2 px-2 py-1 text-xs" title={request.url}>
          {request.url}
        </code>
        <CopyButton value={request.url} label="upload link" />
        {request.state !== 'closed' && (
          <Button
            size="sm"
            variant="secondary"
            disabled={close.isPending}
            icon={<XCircle className="size-4" />}
            onClick={async () => {
              try {
                await close.mutateAsync();
                toast.success(UPLOAD_REQUEST_TEXTS.closed, { duration: SHARE_TOAST_MS });
                await onChanged();
              } catch (err) {
                toast.error(err instanceof Error ? err.message : String(err));
              }
            }}
          >
            {UPLOAD_REQUEST_TEXTS.close}
          </Button>
        )}
      </div>
    </li>
  );
}

import {
  FILE_MANAGER_TEXTS,
  formatFileSize,
  type GuestUploadReceipt,
  isTypeAllowed,
  RECONNECTING_TEXT,
  SharePasswordErrorCodes,
  UPLOAD_REQUEST_TEXTS,
  type UploadRequestGuestInfo,
} from '@guildhall/common';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CalendarClock,
  CircleCheck,
  FileX,
  Inbox,
  KeyRound,
  TriangleExclamationPoint,
  Upload,
} from 'lucide-react';
import { type ReactNode, useId, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { cn } from '../../ui/cn.ts';
import { inputClass } from '../../ui/Modal.tsx';
import { Page } from '../../ui/Page.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { fetchGuestInfo, fetchReceipt } from './api.ts';
import { sendToRequest } from './guest-send.ts';

type Sending = {
  key: string;
  name: string;
  size: number;
  sent: number;
  reconnecting: boolean;
  state: 'sending' | 'done' | 'refused';
  message?: string;
  receipt?: GuestUploadReceipt;
};

/**
 * /request/{token} (issue 45): the guest's side of an upload link, signed out. It shows the member's
 * title, note and the room left, never the folder or its files; each chosen file is sent resumably
 * with a progress bar, then gets a receipt (name, size, SHA-256, time) or the server's refusal.
 */
export function GuestUploadPage() {
  const { token = '' } = useParams();
  const [password, setPassword] = useState<string | null>(null);
  const info = useQuery({
    queryKey: ['upload-request', token, password],
    queryFn: () => fetchGuestInfo(token, password),
    retry: false,
  });
  const error = info.error;
  const passwordCode =
    error instanceof ApiError &&
    (error.code === SharePasswordErrorCodes.required || error.code === SharePasswordErrorCodes.wrong)
      ? error.code
      : null;

  return (
    <Page className="max-w-xl">
      {info.isPending ? (
        <div role="status" className="flex flex-col items-center gap-3 py-24 text-muted">
          <Spinner className="size-8" />
          <p>Loading upload link...</p>
        </div>
      ) : passwordCode ? (
        <PasswordCard isWrong={passwordCode === SharePasswordErrorCodes.wrong} onSubmit={setPassword} />
      ) : error ? (
        <UnavailableCard error={error} />
      ) : info.data ? (
        <RequestCard token={token} info={info.data} password={password} />
      ) : null}
    </Page>
  );
}

function UnavailableCard({ error }: { error: Error }) {
  const isGone = error instanceof ApiError && error.status === 404;
  return (
    <Card role="alert" className="flex flex-col items-center gap-4 py-12 text-center">
      <span className="flex size-14 items-center justify-center rounded-2xl bg-danger/15">
        {isGone ? (
          <FileX className="size-7 text-danger-text" />
        ) : (
          <TriangleExclamationPoint className="size-7 text-danger-text" />
        )}
      </span>
      <h1 className="text-xl font-semibold">{isGone ? UPLOAD_REQUEST_TEXTS.notFoundTitle : 'Error'}</h1>
      <p className="max-w-sm text-sm text-muted">{isGone ? UPLOAD_REQUEST_TEXTS.notFound : error.message}</p>
      <Link to="/" className={buttonClass('secondary', 'md')}>
        Go to Guildhall
      </Link>
    </Card>
  );
}

function PasswordCard({ isWrong, onSubmit }: { isWrong: boolean; onSubmit: (password: string) => void }) {
  const [value, setValue] = useState('');
  return (
    <Card className="flex flex-col items-center gap-4 py-10 text-center">
      <span className="flex size-14 items-center justify-center rounded-2xl bg-warning/15">
        <KeyRound className="size-7 text-warning-text" />
      </span>
      <h1 className="text-xl font-semibold">{FILE_MANAGER_TEXTS.passwordRequired}</h1>
      <form
        className="flex w-full max-w-sm flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (value) onSubmit(value);
        }}
      >
        <label className="text-left text-sm">
          <span className="mb-1 block text-muted">{FILE_MANAGER_TEXTS.passwordLabel}</span>
          <input
            type="password"
            autoComplete="off"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            aria-invalid={isWrong || undefined}
            className={inputClass}
            data-testid="request-password"
          />
        </label>
        {isWrong && (
          <p role="alert" className="text-sm text-danger-text">
            {FILE_MANAGER_TEXTS.passwordWrong}
          </p>
        )}
        <Button type="submit" disabled={!value}>
          {FILE_MANAGER_TEXTS.unlock}
        </Button>
      </form>
    </Card>
  );
}

function RequestCard({
  token,
  info,
  password,
}: {
  token: string;
  info: UploadRequestGuestInfo;
  password: string | null;
}) {
  const [items, setItems] = useState<Sending[]>([]);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const queryClient = useQueryClient();
  const update = (key: string, patch: Partial<Sending>) =>
    setItems((all) => all.map((i) => (i.key === key ? { ...i, ...patch } : i)));

  async function send(file: File) {
    const key = `${file.name}-${file.size}-${Math.random().toString(36).slice(2)}`;
    setItems((all) => [
      ...all,
      { key, name: file.name, size: file.size, sent: 0, reconnecting: false, state: 'sending' },
    ]);
    // Checked here too so a wrong type is said at once; the server decides either way.
    if (!isTypeAllowed(info.allowedTypes, file.name, file.type)) {
      update(key, { state: 'refused', message: UPLOAD_REQUEST_TEXTS.typeRefused(info.allowedTypes) });
      return;
    }
    const result = await sendToRequest(
      file,
      token,
      password,
      (sent) => update(key, { sent }),
      (reconnecting) => update(key, { reconnecting }),
    );
    if (!result.ok) {
      update(key, { state: 'refused', message: result.message, reconnecting: false });
    } else {
      try {
        const receipt = await fetchReceipt(result.url, password);
        update(key, { state: 'done', receipt, sent: file.size, reconnecting: false });
      } catch (e) {
        update(key, { state: 'refused', message: e instanceof Error ? e.message : String(e) });
      }
    }
    await queryClient.invalidateQueries({ queryKey: ['upload-request', token] });
  }

  const isFull = info.filesLeft <= 0 || info.bytesLeft <= 0;
  return (
    <Card className="space-y-6">
      <div className="flex items-start gap-4">
        <span className="flex size-14 shrink-0 items-center justify-center rounded-2xl bg-brand/15">
          <Inbox className="size-7 text-brand" />
        </span>
        <div className="min-w-0">
          <p className="text-sm text-muted [overflow-wrap:anywhere]" data-testid="request-owner">
            {info.ownerName} asks you for files
          </p>
          <h1 className="text-xl font-semibold [overflow-wrap:anywhere]" data-testid="request-title">
            {info.title ?? UPLOAD_REQUEST_TEXTS.guestHeading}
          </h1>
        </div>
      </div>
      {info.note && (
        <p
          data-testid="request-note"
          className="whitespace-pre-line rounded-xl border border-border bg-bg/40 px-3 py-2.5 text-sm [overflow-wrap:anywhere]"
        >
          {info.note}
        </p>
      )}
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <Fact
          label="Room left"
          value={`${formatFileSize(info.bytesLeft)} of ${formatFileSize(info.maxTotalBytes)}`}
          testId="request-room"
        />
        <Fact
          label="Files left"
          value={`${info.filesLeft} of ${info.maxFiles}`}
          testId="request-files-left"
        />
        <Fact
          label="Types"
          value={info.allowedTypes.length > 0 ? info.allowedTypes.join(', ') : 'Any'}
          testId="request-types"
        />
        <Fact
          label="Open until"
          value={
            <span className="inline-flex items-center gap-1.5">
              <CalendarClock className="size-3.5 shrink-0 text-muted" aria-hidden />
              {new Date(info.expiresAt).toLocaleString()}
            </span>
          }
        />
      </dl>
      <div>
        <input
          ref={input}
          id={inputId}
          type="file"
          multiple
          className="sr-only"
          aria-label={UPLOAD_REQUEST_TEXTS.guestDrop}
          tabIndex={-1}
          data-testid="request-file-input"
          accept={info.allowedTypes.length > 0 ? info.allowedTypes.join(',') : undefined}
          onChange={(e) => {
            for (const f of [...(e.target.files ?? [])]) void send(f);
            e.target.value = '';
          }}
        />
        <Button
          size="lg"
          className="w-full"
          disabled={isFull}
          onClick={() => input.current?.click()}
          icon={<Upload className="size-5" />}
        >
          {isFull ? UPLOAD_REQUEST_TEXTS.stateLabels.full : UPLOAD_REQUEST_TEXTS.guestDrop}
        </Button>
        <p className="mt-2 text-center text-xs text-muted">{UPLOAD_REQUEST_TEXTS.guestPrivacy}</p>
      </div>
      {items.length > 0 && (
        <ul className="space-y-3" aria-label="Your files">
          {items.map((i) => (
            <SendingRow key={i.key} item={i} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function SendingRow({ item }: { item: Sending }) {
  const percent = item.size > 0 ? Math.floor((item.sent / item.size) * 100) : 100;
  return (
    <li
      className={cn(
        'rounded-xl border px-3 py-2.5 text-sm',
        item.state === 'refused' ? 'border-danger/40 bg-danger/10' : 'border-border bg-bg/40',
      )}
      data-testid="request-item"
      data-state={item.state}
    >
      <div className="flex items-center justify-between gap-3">
        <span className="min-w-0 truncate font-medium" title={item.name}>
          {item.name}
        </span>
        <span className="shrink-0 text-xs text-muted">{formatFileSize(item.size)}</span>
      </div>
      {item.state === 'sending' && (
        <div className="mt-2">
          <div
            role="progressbar"
            aria-label={`Sending ${item.name}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-2 overflow-hidden rounded-full bg-surface-2"
          >
            <div
              className="h-full rounded-full bg-brand transition-[width]"
              style={{ width: `${percent}%` }}
            />
          </div>
          <p className="mt-1 text-xs text-muted" data-testid="request-progress">
            {item.reconnecting ? RECONNECTING_TEXT : `${percent}%`}
          </p>
        </div>
      )}
      {item.state === 'refused' && (
        <p role="alert" className="mt-1 text-danger-text" data-testid="request-refusal">
          {item.message}
        </p>
      )}
      {item.state === 'done' && item.receipt && (
        <div className="mt-1 flex items-start gap-2 text-xs text-muted" data-testid="request-receipt">
          <CircleCheck className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
          <p className="min-w-0 [overflow-wrap:anywhere]">
            <span className="font-medium text-success">{UPLOAD_REQUEST_TEXTS.receiptTitle}</span> as “
            {item.receipt.name}” at {new Date(item.receipt.receivedAt).toLocaleTimeString()} · SHA-256{' '}
            <code data-testid="request-sha">{item.receipt.sha256}</code>
          </p>
        </div>
      )}
    </li>
  );
}

function Fact({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div className="rounded-xl border border-border bg-bg/40 px-3 py-2.5">
      <dt className="text-xs text-muted">{label}</dt>
      <dd data-testid={testId} className="mt-0.5 font-medium [overflow-wrap:anywhere]">
        {value}
      </dd>
    </div>
  );
}

import {
  FILE_MANAGER_TEXTS,
  FILES_TEXTS,
  formatFileSize,
  previewKindOf,
  SHARE_LINK_TEXTS,
  SHARE_PASSWORD_HEADER,
  SHARED_PAGE_TOAST_MS,
  type SharedFileInfo,
  SharedInfoResponse,
  SharePasswordErrorCodes,
  sharedDownloadFailedText,
} from '@guildhall/common';
import { useQuery } from '@tanstack/react-query';
import {
  Calendar,
  Download,
  Eye,
  FileX,
  Gauge,
  Globe,
  KeyRound,
  Lock,
  LogIn,
  TriangleExclamationPoint,
  Users,
} from 'lucide-react';
import { type ReactNode, useCallback, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { toast } from 'sonner';
import { ApiError, apiFetch } from '../../api/client.ts';
import { loginPathFor } from '../../auth/next-path.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { inputClass } from '../../ui/Modal.tsx';
import { Page } from '../../ui/Page.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { dateLabel } from './display.ts';
import { ItemIcon } from './ItemIcon.tsx';
import { PreviewDialog, type PreviewFile } from './PreviewDialog.tsx';
import { SharedFolderCard } from './SharedFolderCard.tsx';
import { SharedNote } from './SharedNote.tsx';
import { startBrowserDownload } from './useDownloads.ts';

const tokenPath = (token: string) => `/api/files/shared/${encodeURIComponent(token)}`;

/** The password typed for a protected link goes in a header, never in the URL (or history). */
const passwordHeaders = (password: string | null): Record<string, string> =>
  password ? { [SHARE_PASSWORD_HEADER]: password } : {};

async function fetchSharedInfo(token: string, password: string | null): Promise<SharedFileInfo> {
  return SharedInfoResponse.parse(await apiFetch(tokenPath(token), { headers: passwordHeaders(password) }))
    .data;
}

type Failure =
  | { kind: 'login' }
  | { kind: 'not-found' }
  | { kind: 'limit' }
  | { kind: 'password'; isWrong: boolean }
  | { kind: 'other'; message: string };

/**
 * The spec's reading of a failure (portal-tools §8): AUTH_REQUIRED, anything 404, or the message as is;
 * before those, a link that asks for its password (issue 30).
 */
export function classifyFailure(error: unknown): Failure {
  if (error instanceof ApiError && error.code === SharePasswordErrorCodes.required)
    return { kind: 'password', isWrong: false };
  if (error instanceof ApiError && error.code === SharePasswordErrorCodes.wrong)
    return { kind: 'password', isWrong: true };
  if (error instanceof ApiError && error.code === 'SHARE_LIMIT_REACHED') return { kind: 'limit' };
  if (error instanceof ApiError && (error.code === 'AUTH_REQUIRED' || error.status === 401))
    return { kind: 'login' };
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ApiError && (error.code === 'NOT_FOUND' || error.status === 404))
    return { kind: 'not-found' };
  // The spec's own rule (portal-tools §8), for a failure that is not the API's (no code to match).
  if (!(error instanceof ApiError) && message.includes('404')) return { kind: 'not-found' };
  return { kind: 'other', message };
}

/** Unknown size and date fall back to the spec's texts. */
export function sizeText(size: number | null | undefined): string {
  return typeof size === 'number' && Number.isFinite(size) && size >= 0
    ? formatFileSize(size)
    : FILES_TEXTS.unknownSize;
}

/** /shared/{token} (portal-tools §2): loading, login required, not found, or the file with a download button. */
export function SharedLinkPage() {
  const { token = '' } = useParams();
  const [password, setPassword] = useState<string | null>(null);
  const info = useQuery({
    queryKey: ['shared', token, password],
    queryFn: () => fetchSharedInfo(token, password),
    retry: false,
  });
  const failure = info.isError ? classifyFailure(info.error) : null;

  return (
    <Page className="max-w-xl">
      {info.isPending ? (
        <div role="status" className="flex flex-col items-center gap-3 py-24 text-muted">
          <Spinner className="size-8" />
          <p>Loading shared file...</p>
        </div>
      ) : failure?.kind === 'password' ? (
        <PasswordCard isWrong={failure.isWrong} onSubmit={setPassword} />
      ) : failure ? (
        <FailureCard failure={failure} />
      ) : info.data?.kind === 'folder' ? (
        <SharedFolderCard
          tokenPath={tokenPath(token)}
          info={info.data}
          headers={passwordHeaders(password)}
          sizeText={sizeText}
          onDownloaded={() => void info.refetch()}
        />
      ) : info.data ? (
        <FileCard
          token={token}
          info={info.data}
          password={password}
          onDownloaded={() => void info.refetch()}
        />
      ) : null}
    </Page>
  );
}

function FailureCard({ failure }: { failure: Exclude<Failure, { kind: 'password' }> }) {
  const location = useLocation();
  if (failure.kind === 'login') {
    return (
      <Card className="flex flex-col items-center gap-4 py-12 text-center">
        <span className="flex size-14 items-center justify-center rounded-2xl bg-warning/15">
          <Lock className="size-7 text-warning-text" />
        </span>
        <h1 className="text-xl font-semibold">{FILES_TEXTS.loginRequired}</h1>
        <p className="max-w-sm text-sm text-muted">{FILES_TEXTS.loginRequiredBody}</p>
        <Link to={loginPathFor(location.pathname)} className={buttonClass('primary', 'md')}>
          <LogIn className="size-4" />
          Log in
        </Link>
      </Card>
    );
  }
  if (failure.kind === 'limit') {
    return (
      <Card role="alert" className="flex flex-col items-center gap-4 py-12 text-center">
        <span className="flex size-14 items-center justify-center rounded-2xl bg-warning/15">
          <Gauge className="size-7 text-warning-text" />
        </span>
        <h1 className="text-xl font-semibold">{SHARE_LINK_TEXTS.limitReachedTitle}</h1>
        <p className="max-w-sm text-sm text-muted" data-testid="shared-limit-reached">
          {SHARE_LINK_TEXTS.limitReached}. Ask the person who shared it for a new link.
        </p>
        <Link to="/" className={buttonClass('secondary', 'md')}>
          Go to Guildhall
        </Link>
      </Card>
    );
  }
  const isNotFound = failure.kind === 'not-found';
  return (
    <Card role="alert" className="flex flex-col items-center gap-4 py-12 text-center">
      <span className="flex size-14 items-center justify-center rounded-2xl bg-danger/15">
        {isNotFound ? (
          <FileX className="size-7 text-danger-text" />
        ) : (
          <TriangleExclamationPoint className="size-7 text-danger-text" />
        )}
      </span>
      <h1 className="text-xl font-semibold">{isNotFound ? FILES_TEXTS.fileNotFound : 'Error'}</h1>
      <p className="max-w-sm text-sm text-muted">
        {isNotFound ? FILES_TEXTS.fileNotFoundBody : failure.message}
      </p>
      {isNotFound && (
        <>
          <p className="max-w-sm text-sm text-muted">
            The link may have expired or been removed. Ask the person who shared it for a new link.
          </p>
          <Link to="/" className={buttonClass('secondary', 'md')}>
            Go to Guildhall
          </Link>
        </>
      )}
    </Card>
  );
}

/** A protected link: the password form (a wrong one says so; too many wrong ones are refused for a while). */
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
            autoFocus
            value={value}
            onChange={(e) => setValue(e.target.value)}
            aria-invalid={isWrong || undefined}
            aria-describedby={isWrong ? 'password-error' : undefined}
            className={inputClass}
            data-testid="shared-password"
          />
        </label>
        {isWrong && (
          <p id="password-error" role="alert" className="text-sm text-danger-text">
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

/** A ticket for this share's file (the password, if any, proves itself once per ticket). */
async function shareTicket(token: string, password: string | null): Promise<string> {
  const res = await apiFetch<{ data: { url: string } }>(`${tokenPath(token)}/ticket`, {
    method: 'POST',
    headers: passwordHeaders(password),
  });
  return res.data.url;
}

function FileCard({
  token,
  info,
  password,
  onDownloaded,
}: {
  token: string;
  info: SharedFileInfo;
  password: string | null;
  onDownloaded: () => void;
}) {
  const [isDownloading, setDownloading] = useState(false);
  const [isPreviewOpen, setPreviewOpen] = useState(false);
  const isPublic = info.accessLevel === 'public';
  // A limited link is never previewed (every view would be a download): Download only.
  const isLimited = info.maxDownloads !== null;
  const kind = (info.size ?? 0) > 0 && !isLimited ? previewKindOf(info.name) : 'none';
  const file: PreviewFile = { id: token, name: info.name, size: info.size ?? 0 };
  const previewAddress = useCallback(async () => {
    const url = await shareTicket(token, password);
    return url.replace(/\/download\?/, '/preview?');
  }, [token, password]);
  const inlineImage = useQuery({
    queryKey: ['shared', token, password, 'preview'],
    queryFn: previewAddress,
    enabled: kind === 'image',
    staleTime: 4 * 60_000, // tickets live 5 minutes
  });

  async function download() {
    setDownloading(true);
    try {
      // A short-lived ticket URL lets the browser stream the file to disk itself (and works for user shares).
      const res = { data: { url: await shareTicket(token, password) } };
      startBrowserDownload(res.data.url, info.name);
      toast.success(FILES_TEXTS.downloadStarted, { duration: SHARED_PAGE_TOAST_MS });
      setTimeout(onDownloaded, 2000);
    } catch (e) {
      toast.error(sharedDownloadFailedText(e instanceof Error ? e.message : String(e)), {
        duration: SHARED_PAGE_TOAST_MS,
      });
    } finally {
      setDownloading(false);
    }
  }

  return (
    <Card className="space-y-6">
      <div className="flex items-start gap-4">
        <span className="flex size-14 shrink-0 items-center justify-center rounded-2xl bg-brand/15">
          <ItemIcon item={{ name: info.name, type: 'file' }} className="size-7" />
        </span>
        <div className="min-w-0">
          <p className="text-sm text-muted [overflow-wrap:anywhere]" data-testid="shared-title">
            {info.title ?? 'Shared file'}
          </p>
          <h1 data-testid="shared-name" className="text-xl font-semibold [overflow-wrap:anywhere]">
            {info.name}
          </h1>
        </div>
      </div>
      {info.note && <SharedNote note={info.note} />}
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <Fact label="Size" value={sizeText(info.size)} testId="shared-size" />
        <Fact
          label="Access"
          value={
            <Badge tone={isPublic ? 'success' : 'brand'}>
              {isPublic ? <Globe className="size-3" /> : <Users className="size-3" />}
              {isPublic ? 'Public' : 'Users only'}
            </Badge>
          }
        />
        <Fact
          label="Downloads"
          value={
            info.maxDownloads === null
              ? String(info.downloadCount)
              : `${info.downloadCount} · ${SHARE_LINK_TEXTS.downloadsLeft(Math.max(0, info.maxDownloads - info.downloadCount))}`
          }
          testId="shared-downloads"
        />
        <Fact
          label="Shared"
          value={
            <span className="inline-flex items-center gap-1.5">
              <Calendar className="size-3.5 shrink-0 text-muted" aria-hidden />
              {dateLabel(info.createdAt)}
            </span>
          }
        />
      </dl>
      {kind === 'image' && inlineImage.data && (
        <button
          type="button"
          onClick={() => setPreviewOpen(true)}
          className="block w-full overflow-hidden rounded-xl border border-border bg-bg/40"
          aria-label={`Preview ${info.name}`}
        >
          <img
            src={inlineImage.data}
            alt={info.name}
            data-testid="shared-image"
            className="mx-auto max-h-96 w-auto cursor-zoom-in object-contain"
          />
        </button>
      )}
      {kind !== 'none' && kind !== 'image' && (
        <Button
          variant="secondary"
          className="w-full"
          onClick={() => setPreviewOpen(true)}
          icon={<Eye className="size-4" />}
        >
          Preview
        </Button>
      )}
      {isPreviewOpen && (
        <PreviewDialog
          files={[file]}
          index={0}
          onIndex={() => {}}
          onClose={() => setPreviewOpen(false)}
          urlOf={previewAddress}
          onDownload={() => void download()}
        />
      )}
      <Button
        size="lg"
        className="w-full"
        onClick={download}
        disabled={isDownloading}
        icon={isDownloading ? <Spinner className="size-4" /> : <Download className="size-5" />}
      >
        {isDownloading ? 'Downloading...' : 'Download'}
      </Button>
    </Card>
  );
}

function Fact({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div className="rounded-xl border border-border bg-bg/40 px-3 py-2.5">
      <dt className="text-xs text-muted">{label}</dt>
      <dd data-testid={testId} className="mt-0.5 font-medium">
        {value}
      </dd>
    </div>
  );
}

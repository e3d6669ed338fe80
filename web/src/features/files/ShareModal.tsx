import {
  FILE_MANAGER_TEXTS,
  FILES_TEXTS,
  type FileItem,
  type FileShare,
  SHARE_LINK_TEXTS,
  SHARE_PASSWORD_MAX_CHARS,
  SHARE_PASSWORD_MIN_CHARS,
  SHARE_TOAST_MS,
  type ShareAccessLevel,
} from '@guildhall/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, Download, Globe, KeyRound, Link2, Pencil, Trash, Users } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { inputClass, Modal } from '../../ui/Modal.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { createShare, deleteShare, fetchShares } from './api.ts';
import { dateLabel } from './display.ts';
import { ShareEditForm } from './ShareEditForm.tsx';
import { LevelOption, localInputValue } from './share-form-parts.tsx';
import { FILES_KEY } from './useFilesView.ts';

type Tab = 'create' | 'existing';

/**
 * Share File (portal-tools §2, §4): Create Share, then Existing Shares (with their count). Closing
 * unmounts it, so it always opens fresh.
 */
export function ShareModal({ file, onClose }: { file: FileItem; onClose: () => void }) {
  const [tab, setTab] = useState<Tab>('create');
  const queryClient = useQueryClient();
  const sharesKey = [...FILES_KEY, 'shares', file.id];
  const shares = useQuery({ queryKey: sharesKey, queryFn: () => fetchShares(file.id) });
  const afterChange = () => queryClient.invalidateQueries({ queryKey: sharesKey });

  return (
    <Modal title={FILES_TEXTS.shareFile} onClose={onClose} className="max-w-lg">
      <p className="-mt-2 mb-4 truncate text-sm text-muted" title={file.name}>
        {file.name}
      </p>
      <div role="tablist" className="mb-5 grid grid-cols-2 gap-1 rounded-xl bg-bg/60 p-1">
        {(['create', 'existing'] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            onClick={() => setTab(t)}
            className={cn(
              'h-9 rounded-lg text-sm font-medium transition-colors',
              tab === t ? 'bg-surface-2 text-text shadow' : 'text-muted hover:text-text',
            )}
          >
            {t === 'create'
              ? FILES_TEXTS.createShareTab
              : `${FILES_TEXTS.existingSharesTab} (${shares.data?.length ?? 0})`}
          </button>
        ))}
      </div>
      {tab === 'create' ? (
        <CreateShareForm
          file={file}
          onCreated={async () => {
            await afterChange();
            setTab('existing');
          }}
        />
      ) : (
        <ExistingShares shares={shares.data} isLoading={shares.isPending} onChanged={afterChange} />
      )}
    </Modal>
  );
}

function CreateShareForm({ file, onCreated }: { file: FileItem; onCreated: () => Promise<void> }) {
  const [accessLevel, setAccessLevel] = useState<ShareAccessLevel>('user');
  const [expiry, setExpiry] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () =>
      createShare(file.id, accessLevel, expiry ? new Date(expiry).toISOString() : null, password),
  });

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (expiry && new Date(expiry).getTime() <= Date.now()) {
      setError('The expiry must be in the future (leave it empty for a permanent link).');
      return;
    }
    if (password && password.length < SHARE_PASSWORD_MIN_CHARS) {
      setError(`The password needs at least ${SHARE_PASSWORD_MIN_CHARS} characters (or none).`);
      return;
    }
    try {
      const share = await create.mutateAsync();
      await copyQuietly(share.url);
      toast.success('Share link created', { description: share.url, duration: SHARE_TOAST_MS });
      await onCreated();
    } catch (err) {
      toast.error(FILES_TEXTS.createShareFailed, {
        description: err instanceof Error ? err.message : undefined,
        duration: SHARE_TOAST_MS,
      });
    }
  }

  return (
    <form onSubmit={submit} className="space-y-5">
      <fieldset className="space-y-2">
        <legend className="mb-2 text-sm text-muted">Who can open the link</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          <LevelOption
            checked={accessLevel === 'user'}
            onSelect={() => setAccessLevel('user')}
            icon={<Users className="size-4" />}
            title="Users"
            hint="Signed-in members only"
            value="user"
            name="accessLevel"
          />
          <LevelOption
            checked={accessLevel === 'public'}
            onSelect={() => setAccessLevel('public')}
            icon={<Globe className="size-4" />}
            title="Public"
            hint="Anyone with the link"
            value="public"
            name="accessLevel"
          />
        </div>
      </fieldset>
      <label className="block space-y-1.5">
        <span className="text-sm text-muted">Expires (optional)</span>
        <input
          type="datetime-local"
          className={cn(inputClass)}
          value={expiry}
          min={localInputValue(new Date())}
          onChange={(e) => {
            setExpiry(e.target.value);
            setError(null);
          }}
          aria-describedby="expiry-hint"
        />
        <span id="expiry-hint" className="block text-xs text-muted">
          Leave empty for a permanent link.
        </span>
      </label>
      <label className="block space-y-1.5">
        <span className="text-sm text-muted">{FILE_MANAGER_TEXTS.passwordLabel} (optional)</span>
        <input
          type="password"
          autoComplete="new-password"
          className={cn(inputClass)}
          value={password}
          maxLength={SHARE_PASSWORD_MAX_CHARS}
          onChange={(e) => {
            setPassword(e.target.value);
            setError(null);
          }}
          aria-describedby="password-hint"
          data-testid="share-password"
        />
        <span id="password-hint" className="block text-xs text-muted">
          The link then asks for it before showing the file. Send it separately from the link.
        </span>
      </label>
      {error && (
        <p role="alert" className="text-sm text-danger-text">
          {error}
        </p>
      )}
      <div className="flex justify-end">
        <Button type="submit" disabled={create.isPending} icon={<Link2 className="size-4" />}>
          Create Share Link
        </Button>
      </div>
    </form>
  );
}

/** "n" or "n / limit", with the word, so the count does not rest on the icon alone. */
export function shareDownloadsText(downloadCount: number, maxDownloads: number | null): string {
  if (maxDownloads !== null) return `${downloadCount} / ${maxDownloads} downloads`;
  return downloadCount === 1 ? '1 download' : `${downloadCount} downloads`;
}

/** The link as listed: on a phone the origin gives way, so the token (what tells links apart) shows. */
function ShareUrl({ url }: { url: string }) {
  const at = url.indexOf('/shared/');
  return (
    <code className="min-w-0 flex-1 truncate font-mono text-xs text-brand-text" title={url}>
      {at > 0 && <span className="max-sm:hidden">{url.slice(0, at)}</span>}
      {at > 0 ? url.slice(at) : url}
    </code>
  );
}

const iconButton =
  'inline-flex size-8 shrink-0 items-center justify-center rounded-lg border border-border text-muted hover:bg-surface-2 hover:text-text';

function ExistingShares({
  shares,
  isLoading,
  onChanged,
}: {
  shares: FileShare[] | undefined;
  isLoading: boolean;
  onChanged: () => Promise<void>;
}) {
  const remove = useMutation({ mutationFn: deleteShare });
  const [editing, setEditing] = useState<string | null>(null);
  // Back from the edit form, keyboard focus returns to the Edit button it was opened from.
  const [focusEditOf, setFocusEditOf] = useState<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (!focusEditOf || editing) return;
    list.current?.querySelector<HTMLElement>(`[data-edit-share="${CSS.escape(focusEditOf)}"]`)?.focus();
    setFocusEditOf(null);
  }, [focusEditOf, editing]);
  const edited = shares?.find((s) => s.id === editing);
  if (isLoading) return <Spinner />;
  if (edited) {
    return (
      <ShareEditForm
        share={edited}
        onDone={async (saved) => {
          if (saved) await onChanged();
          setFocusEditOf(edited.id);
          setEditing(null);
        }}
      />
    );
  }
  if (!shares || shares.length === 0) {
    return <p className="py-6 text-center text-sm text-muted">No share links for this file yet.</p>;
  }
  return (
    <ul className="space-y-3" ref={list}>
      {shares.map((s) => {
        return (
          <li key={s.id} data-testid="share-row" className="rounded-xl border border-border bg-bg/40 p-3">
            {s.title && (
              <p className="mb-1 truncate text-sm font-medium" title={s.title}>
                {s.title}
              </p>
            )}
            <div className="flex items-center gap-2">
              <ShareUrl url={s.url} />
              <button
                type="button"
                title="Copy link"
                aria-label="Copy link"
                onClick={async () => {
                  try {
                    await navigator.clipboard.writeText(s.url);
                    toast.success('Link copied', { duration: SHARE_TOAST_MS });
                  } catch {
                    toast.error(FILES_TEXTS.copyLinkFailed, { duration: SHARE_TOAST_MS });
                  }
                }}
                className={iconButton}
              >
                <Copy className="size-4" />
              </button>
              <button
                type="button"
                title={SHARE_LINK_TEXTS.editShare}
                aria-label={SHARE_LINK_TEXTS.editShare}
                onClick={() => setEditing(s.id)}
                data-edit-share={s.id}
                className={iconButton}
              >
                <Pencil className="size-4" />
              </button>
              <button
                type="button"
                title="Delete share"
                aria-label="Delete share"
                disabled={remove.isPending}
                onClick={async () => {
                  try {
                    await remove.mutateAsync(s.id);
                    toast.success('Share deleted', { duration: SHARE_TOAST_MS });
                    await onChanged();
                  } catch (err) {
                    toast.error(FILES_TEXTS.deleteShareFailed, {
                      description: err instanceof Error ? err.message : undefined,
                      duration: SHARE_TOAST_MS,
                    });
                  }
                }}
                className="inline-flex size-8 shrink-0 items-center justify-center rounded-lg border border-danger/30 text-danger-text hover:bg-danger/15"
              >
                <Trash className="size-4" />
              </button>
            </div>
            <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1.5 text-xs text-muted">
              <span className="flex flex-wrap gap-1.5">
                <Badge tone={s.accessLevel === 'public' ? 'success' : 'brand'}>
                  {s.accessLevel === 'public' ? 'Public' : 'Users'}
                </Badge>
                <span data-testid="share-state" data-state={s.state}>
                  <Badge
                    tone={s.state === 'active' ? 'success' : s.state === 'expired' ? 'danger' : 'warning'}
                  >
                    {s.state === 'expired' ? FILES_TEXTS.expired : SHARE_LINK_TEXTS.stateLabels[s.state]}
                  </Badge>
                </span>
                {s.hasPassword && (
                  <Badge tone="warning">
                    <KeyRound className="size-3" aria-hidden />
                    {FILE_MANAGER_TEXTS.passwordLabel}
                  </Badge>
                )}
              </span>
              <span data-testid="share-expiry">
                {s.expiresAt
                  ? `${s.state === 'expired' ? 'Expired' : 'Expires'} ${dateLabel(s.expiresAt)}`
                  : 'Never expires'}
              </span>
              <span className="inline-flex items-center gap-1" data-testid="share-downloads">
                <Download className="size-3 shrink-0" aria-hidden />
                {shareDownloadsText(s.downloadCount, s.maxDownloads)}
              </span>
              <span>Created {dateLabel(s.createdAt)}</span>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

async function copyQuietly(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Copying right after creating is a convenience; the link is listed under Existing Shares.
  }
}

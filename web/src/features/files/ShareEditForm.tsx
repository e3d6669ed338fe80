import {
  FILE_MANAGER_TEXTS,
  type FileShare,
  NOTICE_TEXTS,
  SHARE_LINK_TEXTS,
  SHARE_MAX_DOWNLOADS_LIMIT,
  SHARE_NOTE_MAX_CHARS,
  SHARE_PASSWORD_MAX_CHARS,
  SHARE_PASSWORD_MIN_CHARS,
  SHARE_TITLE_MAX_CHARS,
  SHARE_TOAST_MS,
  type ShareAccessLevel,
  type ShareUpdateBody,
} from '@guildhall/common';
import { useMutation } from '@tanstack/react-query';
import { Globe, Save, Users } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { inputClass } from '../../ui/Modal.tsx';
import { updateShare } from './api.ts';
import { LevelOption, localInputValue } from './share-form-parts.tsx';

type PasswordChoice = 'keep' | 'set' | 'remove';

/** The edit form's values → only what changed (an absent field stays as it is on the server). */
export function shareChanges(
  share: FileShare,
  form: {
    accessLevel: ShareAccessLevel;
    expiry: string;
    title: string;
    note: string;
    limit: string;
    passwordChoice: PasswordChoice;
    password: string;
    /** Tell the sharer of each download (issue 45). */
    notify?: boolean;
  },
): ShareUpdateBody {
  const changes: ShareUpdateBody = {};
  if (form.accessLevel !== share.accessLevel) changes.accessLevel = form.accessLevel;
  const expiresAt = form.expiry ? new Date(form.expiry).toISOString() : null;
  const before = share.expiresAt ? localInputValue(new Date(share.expiresAt)) : '';
  if (form.expiry !== before) changes.expiresAt = expiresAt;
  if (form.title.trim() !== (share.title ?? '')) changes.title = form.title.trim() || null;
  if (form.note.trim() !== (share.note ?? '')) changes.note = form.note.trim() || null;
  const limit = form.limit.trim() === '' ? null : Number(form.limit);
  if (limit !== share.maxDownloads) changes.maxDownloads = limit;
  if (form.passwordChoice === 'set') changes.password = form.password;
  if (form.passwordChoice === 'remove') changes.password = null;
  if (form.notify !== undefined && form.notify !== share.notifyOnDownload)
    changes.notifyOnDownload = form.notify;
  return changes;
}

/** "Downloaded 3 times so far." */
export function downloadedSoFar(count: number): string {
  return `Downloaded ${count === 1 ? 'once' : `${count} times`} so far.`;
}

/** One labelled control with its hint, the hint tied to the control (not part of its name). */
function Field({
  label,
  hint,
  action,
  children,
}: {
  label: string;
  hint?: string;
  action?: ReactNode;
  children: (ids: { id: string; describedBy: string | undefined }) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className="text-sm text-muted">
          {label}
        </label>
        {action}
      </div>
      {children({ id, describedBy: hint ? hintId : undefined })}
      {hint && (
        <p id={hintId} className="text-xs text-muted">
          {hint}
        </p>
      )}
    </div>
  );
}

/** Edit share (issue 45): expiry, password, access level, title, note and download limit. */
export function ShareEditForm({
  share,
  onDone,
}: {
  share: FileShare;
  onDone: (saved: boolean) => Promise<void> | void;
}) {
  const initialExpiry = share.expiresAt ? localInputValue(new Date(share.expiresAt)) : '';
  const [accessLevel, setAccessLevel] = useState<ShareAccessLevel>(share.accessLevel);
  const [expiry, setExpiry] = useState(initialExpiry);
  const [title, setTitle] = useState(share.title ?? '');
  const [note, setNote] = useState(share.note ?? '');
  const [limit, setLimit] = useState(share.maxDownloads === null ? '' : String(share.maxDownloads));
  const [passwordChoice, setPasswordChoice] = useState<PasswordChoice>('keep');
  const [password, setPassword] = useState('');
  const [notify, setNotify] = useState(share.notifyOnDownload);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({ mutationFn: (body: ShareUpdateBody) => updateShare(share.id, body) });
  // The form replaces the list (and the Edit button that had focus): keyboard focus starts at its heading.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const errorId = useId();
  const titleId = useId();

  async function submit(e: FormEvent) {
    e.preventDefault();
    // Only a changed expiry must be in the future: an expired link keeps its date while its title is edited.
    if (expiry && expiry !== initialExpiry && new Date(expiry).getTime() <= Date.now()) {
      setError('The expiry must be in the future (leave it empty for a permanent link).');
      return;
    }
    if (passwordChoice === 'set' && password.length < SHARE_PASSWORD_MIN_CHARS) {
      setError(`The password needs at least ${SHARE_PASSWORD_MIN_CHARS} characters.`);
      return;
    }
    const n = Number(limit);
    if (limit.trim() !== '' && (!Number.isInteger(n) || n < 1 || n > SHARE_MAX_DOWNLOADS_LIMIT)) {
      setError('The download limit is a whole number of at least 1 (leave it empty for none).');
      return;
    }
    setError(null);
    const body = shareChanges(share, {
      accessLevel,
      expiry,
      title,
      note,
      limit,
      passwordChoice,
      password,
      notify,
    });
    try {
      if (Object.keys(body).length > 0) await save.mutateAsync(body);
      toast.success(SHARE_LINK_TEXTS.shareUpdated, { duration: SHARE_TOAST_MS });
      await onDone(true);
    } catch (err) {
      toast.error(SHARE_LINK_TEXTS.updateShareFailed, {
        description: err instanceof Error ? err.message : undefined,
        duration: SHARE_TOAST_MS,
      });
    }
  }

  const describedBy = (hintId: string | undefined) =>
    [hintId, error ? errorId : undefined].filter(Boolean).join(' ') || undefined;

  return (
    // noValidate: the checks above say what is wrong in words (the browser's own bubble would also refuse
    // an expired link's unchanged date, which is earlier than the field's minimum).
    <form
      onSubmit={submit}
      noValidate
      className="space-y-4"
      data-testid="share-edit-form"
      aria-labelledby={titleId}
    >
      <div className="min-w-0">
        <h3 ref={heading} id={titleId} tabIndex={-1} className="text-sm font-semibold">
          {SHARE_LINK_TEXTS.editShare}
        </h3>
        <p className="truncate font-mono text-xs text-muted" title={share.url} data-testid="edit-share-url">
          {share.title ? `${share.title} · ` : ''}
          {share.url.slice(share.url.indexOf('/shared/') + 1)}
        </p>
      </div>
      <fieldset className="grid gap-2 sm:grid-cols-2">
        <legend className="mb-2 text-sm text-muted">Who can open the link</legend>
        <LevelOption
          name="editAccessLevel"
          checked={accessLevel === 'user'}
          onSelect={() => setAccessLevel('user')}
          icon={<Users className="size-4" />}
          title="Users"
          hint="Signed-in members only"
          value="user"
        />
        <LevelOption
          name="editAccessLevel"
          checked={accessLevel === 'public'}
          onSelect={() => setAccessLevel('public')}
          icon={<Globe className="size-4" />}
          title="Public"
          hint="Anyone with the link"
          value="public"
        />
      </fieldset>
      <Field
        label="Expires"
        hint="Leave empty for a permanent link. A new expiry brings an expired link back."
        action={
          expiry ? (
            <button
              type="button"
              onClick={() => {
                setExpiry('');
                setError(null);
              }}
              className="rounded text-xs font-medium text-brand-text hover:underline"
              data-testid="edit-expiry-clear"
            >
              Make permanent
            </button>
          ) : null
        }
      >
        {({ id, describedBy: hint }) => (
          <input
            id={id}
            type="datetime-local"
            className={inputClass}
            value={expiry}
            min={localInputValue(new Date())}
            onChange={(e) => {
              setExpiry(e.target.value);
              setError(null);
            }}
            aria-describedby={describedBy(hint)}
            data-testid="edit-expiry"
          />
        )}
      </Field>
      <Field label="Title (shown on the shared page)">
        {({ id }) => (
          <input
            id={id}
            className={inputClass}
            value={title}
            maxLength={SHARE_TITLE_MAX_CHARS}
            onChange={(e) => setTitle(e.target.value)}
            data-testid="edit-title"
          />
        )}
      </Field>
      <Field label="Note (shown on the shared page)">
        {({ id }) => (
          <textarea
            id={id}
            className={cn(inputClass, 'h-20 py-2')}
            value={note}
            maxLength={SHARE_NOTE_MAX_CHARS}
            onChange={(e) => setNote(e.target.value)}
            data-testid="edit-note"
          />
        )}
      </Field>
      <Field
        label="Download limit"
        hint={`${downloadedSoFar(share.downloadCount)} Leave empty for no limit; a limited link is not previewed.`}
      >
        {({ id, describedBy: hint }) => (
          <input
            id={id}
            type="number"
            inputMode="numeric"
            min={1}
            max={SHARE_MAX_DOWNLOADS_LIMIT}
            className={inputClass}
            value={limit}
            onChange={(e) => {
              setLimit(e.target.value);
              setError(null);
            }}
            aria-describedby={describedBy(hint)}
            data-testid="edit-limit"
          />
        )}
      </Field>
      <fieldset className="space-y-2">
        <legend className="mb-1 text-sm text-muted">{FILE_MANAGER_TEXTS.passwordLabel}</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
          {(
            [
              ['keep', share.hasPassword ? 'Keep the password' : 'No password'],
              ['set', share.hasPassword ? 'Change the password' : 'Set a password'],
              ...(share.hasPassword ? [['remove', 'Remove the password'] as const] : []),
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="inline-flex items-center gap-1.5">
              <input
                type="radio"
                name="passwordChoice"
                value={value}
                checked={passwordChoice === value}
                onChange={() => {
                  setPasswordChoice(value);
                  setError(null);
                }}
                className="accent-[#5865f2]"
              />
              {label}
            </label>
          ))}
        </div>
        {passwordChoice === 'set' && (
          <input
            type="password"
            autoComplete="new-password"
            className={inputClass}
            value={password}
            maxLength={SHARE_PASSWORD_MAX_CHARS}
            onChange={(e) => {
              setPassword(e.target.value);
              setError(null);
            }}
            aria-label="New password"
            aria-describedby={describedBy(undefined)}
            data-testid="edit-password"
          />
        )}
      </fieldset>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          className="size-4 accent-brand"
          checked={notify}
          onChange={(e) => setNotify(e.target.checked)}
          data-testid="edit-notify"
        />
        {NOTICE_TEXTS.shareNotify}
      </label>
      {error && (
        <p id={errorId} role="alert" className="text-sm text-danger-text">
          {error}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="secondary" onClick={() => void onDone(false)}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending} icon={<Save className="size-4" />}>
          Save changes
        </Button>
      </div>
    </form>
  );
}

import {
  type AccessLevel,
  ADMIN_TEXTS,
  type ClientUser,
  changedUserFields,
  DEMO_USER_ID,
  memberName,
  TEXTS,
} from '@guildhall/common';
import { Check, Pencil, Trash2, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { usePublicConfig } from '../../auth/public-config.ts';
import { ActingLevel } from '../../ui/ActingLevel.tsx';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { cn } from '../../ui/cn.ts';
import { removeUser, updateUser } from './api.ts';
import { LevelSelect, TextInput } from './fields.tsx';
import { checkEdit } from './rules.ts';
import { UserAvatar } from './UserAvatar.tsx';

type Props = {
  user: ClientUser;
  isSelf: boolean;
  /** Shown from the offline cache, which holds no email. */
  isCached: boolean;
  disabled: boolean;
  perform: (op: () => Promise<unknown>, failText: (m: string) => string) => Promise<boolean>;
};

/** One approved user: view, or inline edit with Save and Cancel; Remove (never on your own row). */
export function UserRow({ user, isSelf, isCached, disabled, perform }: Props) {
  const [draft, setDraft] = useState<{ username: string; email: string; accessLevel: AccessLevel } | null>(
    null,
  );
  // In-app dialogs and inline errors instead of window.alert/confirm, with the spec's texts.
  const [problem, setProblem] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'confirm-remove' | 'cannot-remove-self' | null>(null);
  const config = usePublicConfig();
  const isSetupIdentity = Boolean(config?.setupMode) && user.id === DEMO_USER_ID;
  // As everyone sees them (their server nickname first, issue 43); the portal username beside it.
  const shownName = memberName(user);
  // Keyboard (issue 31): editing starts in the Username field (never on Save), Escape cancels, and
  // leaving the edit puts focus back on the row's Edit button.
  const usernameField = useRef<HTMLInputElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (draft && !wasEditing.current) usernameField.current?.focus();
    if (!draft && wasEditing.current) editButton.current?.focus();
    wasEditing.current = draft !== null;
  }, [draft]);

  function cancelEdit() {
    setDraft(null);
    setProblem(null);
  }

  async function save() {
    if (!draft) return;
    const problem = checkEdit(draft);
    setProblem(problem);
    if (problem) return;
    const changes = changedUserFields(user, draft);
    if (Object.keys(changes).length === 0) {
      setDraft(null);
      return;
    }
    const ok = await perform(() => updateUser(user.id, changes), ADMIN_TEXTS.updateFailed);
    if (ok) {
      toast.success(`Updated ${draft.username.trim()}`);
      setDraft(null);
    }
  }

  function askRemove() {
    setDialog(isSelf ? 'cannot-remove-self' : 'confirm-remove');
  }

  async function remove() {
    const ok = await perform(() => removeUser(user.id), ADMIN_TEXTS.removeFailed);
    if (ok) toast.success(`Removed ${user.username}`);
  }

  const columns = 'md:grid-cols-[minmax(0,1.4fr)_minmax(0,1.2fr)_8.5rem_11rem]';
  const rowClass = 'grid items-center gap-x-3 gap-y-2 py-3 first:pt-0 last:pb-0';

  if (draft) {
    return (
      <li
        data-testid={`user-row-${user.id}`}
        data-editing="true"
        className={cn(rowClass, columns)}
        onKeyDown={(e) => {
          if (e.key !== 'Escape') return;
          e.preventDefault();
          cancelEdit();
        }}
      >
        <div className="flex min-w-0 items-center gap-3">
          <UserAvatar id={user.id} username={draft.username || user.username} />
          <TextInput
            ref={usernameField}
            aria-label="Username"
            value={draft.username}
            onChange={(e) => setDraft({ ...draft, username: e.target.value })}
            disabled={disabled}
          />
        </div>
        <TextInput
          aria-label="Email"
          type="email"
          placeholder="Email (optional)"
          value={draft.email}
          onChange={(e) => setDraft({ ...draft, email: e.target.value })}
          disabled={disabled}
        />
        <LevelSelect
          aria-label="Access Level"
          value={draft.accessLevel}
          onChange={(accessLevel) => setDraft({ ...draft, accessLevel })}
          disabled={disabled}
        />
        <div className="flex justify-end gap-2">
          <Button
            variant="success"
            size="sm"
            icon={<Check className="size-4" />}
            onClick={save}
            disabled={disabled}
          >
            Save
          </Button>
          <Button variant="ghost" size="sm" icon={<X className="size-4" />} onClick={cancelEdit}>
            Cancel
          </Button>
        </div>
        {problem && (
          <p role="alert" className="text-sm text-danger-text md:col-span-4">
            {problem}
          </p>
        )}
      </li>
    );
  }

  return (
    <li
      data-testid={`user-row-${user.id}`}
      className={cn(rowClass, 'grid-cols-[minmax(0,1fr)_auto]', columns)}
    >
      <div className="flex min-w-0 items-center gap-3">
        <UserAvatar id={user.id} username={shownName} />
        <div className="min-w-0">
          <div className="flex items-center gap-2">
            <span className="truncate font-medium">{shownName}</span>
            {isSelf && <Badge tone="brand">You</Badge>}
          </div>
          {shownName !== user.username && (
            <div className="truncate text-xs text-muted" data-testid="user-row-username">
              @{user.username}
            </div>
          )}
          <div className="truncate font-mono text-xs text-muted">{user.id}</div>
          {user.email && <div className="truncate text-xs text-muted md:hidden">{user.email}</div>}
        </div>
      </div>
      <div className="hidden truncate text-sm text-muted md:block">
        {user.email ?? (isCached ? null : <span className="text-muted/60">No email</span>)}
      </div>
      <div className="justify-self-end md:justify-self-start">
        <ActingLevel level={user.accessLevel} setupMode={isSetupIdentity} />
      </div>
      <div className="col-span-2 flex justify-end gap-2 md:col-span-1">
        <Button
          ref={editButton}
          variant="secondary"
          size="sm"
          icon={<Pencil className="size-4" />}
          disabled={disabled}
          aria-label={`Edit ${user.username}`}
          onClick={() =>
            setDraft({ username: user.username, email: user.email ?? '', accessLevel: user.accessLevel })
          }
        >
          Edit
        </Button>
        {!isSelf && (
          <Button
            variant="danger"
            size="sm"
            icon={<Trash2 className="size-4" />}
            disabled={disabled}
            aria-label={`Remove ${user.username}`}
            onClick={askRemove}
          >
            Remove
          </Button>
        )}
      </div>
      {dialog === 'confirm-remove' && (
        <ConfirmDialog
          title="Remove user"
          confirmLabel="Remove"
          danger
          onConfirm={remove}
          onClose={() => setDialog(null)}
        >
          {TEXTS.confirmRemove}
        </ConfirmDialog>
      )}
      {dialog === 'cannot-remove-self' && (
        <ConfirmDialog title="Remove user" onClose={() => setDialog(null)}>
          {TEXTS.cannotRemoveSelf}
        </ConfirmDialog>
      )}
    </li>
  );
}

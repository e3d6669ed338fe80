import {
  type DiscordRole,
  NO_ROLE_POLICIES,
  type NoRolePolicy,
  ROLE_SYNC_BRAKE_MAX,
  ROLE_SYNC_INTERVAL_MAX_SECONDS,
  ROLE_SYNC_INTERVAL_MIN_SECONDS,
  type RoleSyncSettingsBody,
  type RoleSyncState,
} from '@guildhall/common';
import { RefreshCw, Save } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { inputClass, TextInput } from './fields.tsx';
import { RoleSyncRoles } from './RoleSyncRoles.tsx';
import { changesOf, draftOf, formatInterval, type RoleSyncDraft, roleRows, withChoice } from './role-sync.ts';

const NO_ROLE_LABELS: Record<NoRolePolicy, string> = {
  pending: 'Pending (an admin approves)',
  viewer: 'Viewer',
  refused: 'Refused',
};

/** How role changes reach the portal: Discord's member events as they come, or the periodic re-check alone. */
const MEMBER_EVENTS_TEXT: Record<RoleSyncState['status']['memberEvents'], string> = {
  on: 'Member events: on (role changes apply as Discord sends them, besides the re-check)',
  off: 'Member events: off (the periodic re-check finds role changes)',
  refused:
    'Member events: refused by Discord (Server Members intent not enabled); the periodic re-check finds role changes',
};

type RolesView =
  | { status: 'pending' }
  | { status: 'error'; message: string; isNotConfigured: boolean; retry: () => void }
  | { status: 'success'; roles: DiscordRole[] };

/**
 * The settings of the sync as one form: the switch, each role's level, the no-role policy, the brake and
 * the interval. Nothing is saved until Save: a saved mapping is applied to every member at once.
 */
export function RoleSyncForm({
  state,
  roles,
  disabled,
  isSaving,
  onSave,
}: {
  state: RoleSyncState;
  roles: RolesView;
  disabled: boolean;
  isSaving: boolean;
  onSave: (body: RoleSyncSettingsBody, done: () => void) => void;
}) {
  const ids = useId();
  const settings = state.settings;
  // null: showing the settings in force (and following them when they change on the server).
  const [edited, setEdited] = useState<RoleSyncDraft | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const draft = edited ?? draftOf(settings);
  const changes = changesOf(draft, settings);
  const isDirty = edited !== null && ('problem' in changes || Object.keys(changes.body).length > 0);
  const busy = disabled || isSaving;
  const edit = (patch: Partial<RoleSyncDraft>) => {
    setEdited({ ...draft, ...patch });
    setProblem(null);
  };
  const interval = Number(draft.intervalSeconds);

  function submit(e: FormEvent) {
    e.preventDefault();
    if ('problem' in changes) {
      setProblem(changes.problem);
      return;
    }
    if (Object.keys(changes.body).length === 0) return;
    onSave(changes.body, () => setEdited(null));
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Role sync settings" className="space-y-5 text-sm">
      <div>
        <label className="flex items-start gap-2.5">
          <input
            type="checkbox"
            className="mt-0.5 size-4 shrink-0 cursor-pointer accent-brand"
            checked={draft.enabled}
            disabled={busy}
            onChange={(e) => edit({ enabled: e.target.checked })}
          />
          <span className="font-medium">Levels follow the Discord server's roles</span>
        </label>
        <p className="mt-1 pl-6.5 text-muted" data-testid="role-sync-server">
          Server: {state.guildName ?? (settings.guildId ? `id ${settings.guildId}` : 'not set')}
          {state.status.lastRunAt && <> · last checked {new Date(state.status.lastRunAt).toLocaleString()}</>}
        </p>
        <p className="mt-0.5 pl-6.5 text-muted" data-testid="role-sync-events">
          {MEMBER_EVENTS_TEXT[state.status.memberEvents]}
        </p>
      </div>

      <fieldset>
        <legend className="font-medium">Levels by role</legend>
        <p className="mt-1 text-muted">
          The highest mapped role a member holds gives their level; a deny role keeps them out whatever else
          they hold.
        </p>
        <div className="mt-2">
          {roles.status === 'pending' && <p className="text-muted">Listing the server's roles…</p>}
          {roles.status === 'error' && (
            <div
              data-testid="role-sync-roles-error"
              className="flex flex-wrap items-center gap-2 rounded-lg border border-border bg-surface-2 px-3 py-2"
            >
              <span className="min-w-56 flex-1">
                {roles.isNotConfigured
                  ? roles.message
                  : `Could not list the server's roles: ${roles.message}`}
              </span>
              {!roles.isNotConfigured && (
                <Button
                  size="sm"
                  variant="secondary"
                  icon={<RefreshCw className="size-4" />}
                  onClick={roles.retry}
                >
                  Try again
                </Button>
              )}
            </div>
          )}
          {roles.status === 'success' && (
            <RoleSyncRoles
              rows={roleRows(roles.roles, draft.roleLevels, draft.denyRoles)}
              roleLevels={draft.roleLevels}
              denyRoles={draft.denyRoles}
              disabled={busy}
              onChoose={(roleId, choice) =>
                edit(withChoice(roleId, choice, draft.roleLevels, draft.denyRoles))
              }
            />
          )}
        </div>
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-3">
        <label className="space-y-1.5">
          <span className="block font-medium">A member with no mapped role is</span>
          <select
            className={cn(inputClass, 'cursor-pointer')}
            value={draft.noRole}
            disabled={busy}
            onChange={(e) => edit({ noRole: e.target.value as NoRolePolicy })}
          >
            {NO_ROLE_POLICIES.map((p) => (
              <option key={p} value={p}>
                {NO_ROLE_LABELS[p]}
              </option>
            ))}
          </select>
        </label>
        <div className="space-y-1.5">
          <label htmlFor={`${ids}-brake`} className="block font-medium">
            Demotion brake
          </label>
          <TextInput
            id={`${ids}-brake`}
            aria-describedby={`${ids}-brake-help`}
            type="number"
            inputMode="numeric"
            min={0}
            max={ROLE_SYNC_BRAKE_MAX}
            value={draft.demotionBrake}
            disabled={busy}
            onChange={(e) => edit({ demotionBrake: e.target.value })}
          />
          <p id={`${ids}-brake-help`} className="text-xs text-muted">
            A run that would demote more members than this waits for you.
          </p>
        </div>
        <div className="space-y-1.5">
          <label htmlFor={`${ids}-interval`} className="block font-medium">
            Re-check every (seconds)
          </label>
          <TextInput
            id={`${ids}-interval`}
            aria-describedby={`${ids}-interval-help`}
            type="number"
            inputMode="numeric"
            min={ROLE_SYNC_INTERVAL_MIN_SECONDS}
            max={ROLE_SYNC_INTERVAL_MAX_SECONDS}
            value={draft.intervalSeconds}
            disabled={busy}
            onChange={(e) => edit({ intervalSeconds: e.target.value })}
          />
          <p id={`${ids}-interval-help`} className="text-xs text-muted">
            {Number.isInteger(interval) && interval > 0
              ? `Every member is looked up again within ${formatInterval(interval)}.`
              : `At least ${ROLE_SYNC_INTERVAL_MIN_SECONDS} seconds.`}
          </p>
        </div>
      </div>

      {problem && (
        <p
          role="alert"
          data-testid="role-sync-form-problem"
          className="rounded-lg border border-danger/30 bg-danger/10 px-3 py-2 text-danger-text"
        >
          {problem}
        </p>
      )}
      <div className="flex flex-wrap items-center justify-end gap-2">
        {isDirty && (
          <span className="w-full font-medium text-warning-text sm:mr-auto sm:w-auto" role="status">
            Unsaved changes
          </span>
        )}
        <Button
          variant="ghost"
          disabled={busy || !isDirty}
          onClick={() => {
            setEdited(null);
            setProblem(null);
          }}
        >
          Cancel
        </Button>
        <Button type="submit" icon={<Save className="size-4" />} disabled={busy || !isDirty}>
          Save settings
        </Button>
      </div>
    </form>
  );
}

import {
  ACCESS_LEVELS,
  LEVEL_LABELS,
  NO_ROLE_POLICIES,
  type NoRolePolicy,
  type RoleSyncSettingsBody,
  type RoleSyncState,
  roleColorHex,
} from '@guildhall/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, Shield } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '../../ui/Button.tsx';
import { Card, CardTitle } from '../../ui/Card.tsx';
import { decideHeld, fetchDiscordRoles, fetchRoleSync, saveRoleSync } from './api.ts';
import { inputClass } from './fields.tsx';
import { choiceOf, type RoleChoice, withChoice } from './role-sync.ts';

const KEY = ['admin', 'role-sync'] as const;
const NO_ROLE_LABELS: Record<NoRolePolicy, string> = {
  pending: 'Pending',
  viewer: 'Viewer',
  refused: 'Refused',
};
const describe = (level: string, approved: boolean) => (approved ? level : `${level} (no access)`);

/**
 * Roles from Discord (issue 43): the problem banner, held demotions with their preview, and the settings
 * (roles listed by name and colour from the bot's view, each mapped to a level or "deny").
 */
export function RoleSyncCard({ disabled }: { disabled: boolean }) {
  const queryClient = useQueryClient();
  const sync = useQuery({ queryKey: KEY, queryFn: fetchRoleSync });
  const roles = useQuery({ queryKey: [...KEY, 'roles'], queryFn: fetchDiscordRoles, retry: false });
  const onDone = (state: RoleSyncState) => queryClient.setQueryData(KEY, state);
  const onError = (e: Error) => toast.error(e.message);
  const save = useMutation({ mutationFn: saveRoleSync, onSuccess: onDone, onError });
  const decide = useMutation({ mutationFn: decideHeld, onSuccess: onDone, onError });
  const state = sync.data;
  const busy = disabled || save.isPending || decide.isPending;
  const change = (body: RoleSyncSettingsBody) => save.mutate(body);

  return (
    <Card className="mb-6" data-testid="role-sync">
      <CardTitle icon={<Shield className="size-4" />}>Roles from Discord</CardTitle>
      {sync.isError && <p className="text-sm text-danger">Could not load the role sync settings.</p>}
      {state?.status.problem && (
        <p
          role="alert"
          data-testid="role-sync-problem"
          className="mb-3 flex items-start gap-2 rounded-lg border border-warning/30 bg-warning/10 px-3 py-2 text-sm text-warning-text"
        >
          <AlertTriangle className="mt-0.5 size-4 shrink-0" />
          <span>
            Role sync cannot see Discord, so no levels change: {state.status.problem.message} (since{' '}
            {new Date(state.status.problem.since).toLocaleString()})
          </span>
        </p>
      )}
      {state?.status.paused && (
        <p className="mb-3 text-sm text-warning-text">
          Role sync is paused after held changes were discarded. Save the settings to resume it.
        </p>
      )}
      {state && state.held.length > 0 && (
        <div data-testid="role-sync-held" className="mb-4 rounded-lg border border-danger/30 p-3 text-sm">
          <p className="mb-2 font-medium">
            {state.held.length} demotions are held for your confirmation (more than{' '}
            {state.settings.demotionBrake} at once):
          </p>
          <ul className="mb-3 space-y-1">
            {state.held.map((h) => (
              <li key={h.discordId}>
                <span className="font-medium">{h.username}</span>: {describe(h.fromLevel, h.fromApproved)} →{' '}
                {describe(h.toLevel, h.toApproved)} <span className="text-muted">({h.reason})</span>
              </li>
            ))}
          </ul>
          <div className="flex gap-2">
            <Button size="sm" variant="danger" disabled={busy} onClick={() => decide.mutate('confirm')}>
              Apply these changes
            </Button>
            <Button size="sm" variant="secondary" disabled={busy} onClick={() => decide.mutate('discard')}>
              Discard and pause
            </Button>
          </div>
        </div>
      )}
      {state && (
        <div className="space-y-3 text-sm">
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={state.settings.enabled}
              disabled={busy}
              onChange={(e) => change({ enabled: e.target.checked })}
            />
            Levels follow the Discord server's roles
            {state.guildName
              ? ` (${state.guildName})`
              : state.settings.guildId
                ? ` (server ${state.settings.guildId})`
                : ''}
          </label>
          <label className="flex items-center gap-2">
            <span className="w-56 text-muted">A member with no mapped role is</span>
            <select
              className={`${inputClass} w-40`}
              value={state.settings.noRole}
              disabled={busy}
              onChange={(e) => change({ noRole: e.target.value as NoRolePolicy })}
            >
              {NO_ROLE_POLICIES.map((p) => (
                <option key={p} value={p}>
                  {NO_ROLE_LABELS[p]}
                </option>
              ))}
            </select>
          </label>
          <p className="text-muted">
            Demotion brake: {state.settings.demotionBrake} · re-checked every {state.settings.intervalSeconds}{' '}
            s
          </p>
          {roles.isError ? (
            <p className="text-danger">Could not list the server's roles: {roles.error.message}</p>
          ) : (
            <ul className="divide-y divide-border/60" data-testid="role-sync-roles">
              {(roles.data ?? []).map((role) => (
                <li key={role.id} className="flex items-center justify-between gap-2 py-2">
                  <span className="flex items-center gap-2">
                    <span
                      aria-hidden
                      className="inline-block size-3 rounded-full border border-border"
                      style={{ background: roleColorHex(role.color) ?? 'transparent' }}
                    />
                    <span style={{ color: roleColorHex(role.color) ?? undefined }}>{role.name}</span>
                  </span>
                  <select
                    aria-label={`Level of role ${role.name}`}
                    className={`${inputClass} w-40`}
                    disabled={busy}
                    value={choiceOf(role.id, state.settings.roleLevels, state.settings.denyRoles)}
                    onChange={(e) =>
                      change(
                        withChoice(
                          role.id,
                          e.target.value as RoleChoice,
                          state.settings.roleLevels,
                          state.settings.denyRoles,
                        ),
                      )
                    }
                  >
                    <option value="">No level</option>
                    {ACCESS_LEVELS.map((level) => (
                      <option key={level} value={level}>
                        {LEVEL_LABELS[level]}
                      </option>
                    ))}
                    <option value="deny">Deny access</option>
                  </select>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Card>
  );
}

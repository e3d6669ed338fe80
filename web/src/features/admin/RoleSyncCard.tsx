import type { RoleSyncSettingsBody, RoleSyncState } from '@guildhall/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, PauseCircle, Shield } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { ApiError } from '../../api/client.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card, CardTitle } from '../../ui/Card.tsx';
import { checkRoleSyncNow, decideHeld, fetchDiscordRoles, fetchRoleSync, saveRoleSync } from './api.ts';
import { RoleSyncForm } from './RoleSyncForm.tsx';
import { RoleSyncHeld } from './RoleSyncHeld.tsx';

const KEY = ['admin', 'role-sync'] as const;
const ROLES_KEY = [...KEY, 'roles'] as const;
/** While the sync is on, its status is re-read this often: a problem shows (and clears) without a reload. */
const STATUS_POLL_MS = 15_000;
/** After Check now, the status is re-read every second for this long: the run's outcome shows at once. */
const CHECKING_POLL_MS = 1_000;
const CHECKING_FOR_MS = 20_000;

/**
 * Roles from Discord (issue 43): whether the sync is on, the problem banner, held demotions with their
 * preview, and the settings (roles listed by name and colour from the bot's view, each mapped to a level
 * or "deny").
 */
export function RoleSyncCard({ disabled }: { disabled: boolean }) {
  const queryClient = useQueryClient();
  const [checking, setChecking] = useState(false);
  useEffect(() => {
    if (!checking) return;
    const timer = setTimeout(() => setChecking(false), CHECKING_FOR_MS);
    return () => clearTimeout(timer);
  }, [checking]);
  const sync = useQuery({
    queryKey: KEY,
    queryFn: fetchRoleSync,
    refetchInterval: (query) =>
      query.state.data?.settings.enabled ? (checking ? CHECKING_POLL_MS : STATUS_POLL_MS) : false,
  });
  const roles = useQuery({ queryKey: ROLES_KEY, queryFn: fetchDiscordRoles, retry: false });
  const setState = (state: RoleSyncState) => queryClient.setQueryData(KEY, state);
  const onError = (e: Error) => toast.error(e.message);
  const save = useMutation({
    mutationFn: ({ body }: { body: RoleSyncSettingsBody; done: () => void }) => saveRoleSync(body),
    onSuccess: (state, { done }) => {
      setState(state);
      done();
      setChecking(true); // saving starts a run with the new settings: its outcome shows at once
      toast.success('Role sync settings saved');
    },
    onError,
  });
  const check = useMutation({
    mutationFn: checkRoleSyncNow,
    onSuccess: (state) => {
      setState(state);
      setChecking(true);
      toast.success('Checking every member now');
    },
    onError,
  });
  const decide = useMutation({
    mutationFn: decideHeld,
    onSuccess: (state, decision) => {
      setState(state);
      toast.success(decision === 'confirm' ? 'Held changes applied' : 'Held changes discarded; sync paused');
    },
    onError,
  });
  // Listing the roles also records the server's name: show it instead of the bare id.
  const rolesLoadedAt = roles.dataUpdatedAt;
  useEffect(() => {
    if (rolesLoadedAt) void queryClient.invalidateQueries({ queryKey: KEY, exact: true });
  }, [rolesLoadedAt, queryClient]);

  const state = sync.data;
  const busy = disabled || save.isPending || decide.isPending;
  const problem = state?.status.problem;

  return (
    <Card className="mb-6" data-testid="role-sync">
      <CardTitle icon={<Shield className="size-4" />} action={state && <SyncBadge state={state} />}>
        Roles from Discord
      </CardTitle>
      {sync.isPending && <p className="text-sm text-muted">Loading the role sync settings…</p>}
      {sync.isError && (
        <p className="text-sm text-danger-text">
          Could not load the role sync settings: {sync.error.message}
        </p>
      )}
      {problem && (
        <div
          role="alert"
          data-testid="role-sync-problem"
          className="mb-4 flex flex-wrap items-start gap-2 rounded-lg border border-warning/30 bg-warning/10 px-3 py-2 text-sm text-warning-text"
        >
          <AlertTriangle className="mt-0.5 size-4 shrink-0" />
          {/* On a narrow screen the button goes under the text instead of squeezing it. */}
          <div className="min-w-[14rem] flex-1">
            <p>Role sync cannot see Discord, so no levels change: {problem.message}</p>
            <p className="mt-0.5 text-xs">Since {new Date(problem.since).toLocaleString()}</p>
          </div>
          <Button
            variant="secondary"
            size="sm"
            className="ml-auto shrink-0"
            disabled={busy || check.isPending}
            onClick={() => check.mutate()}
          >
            {checking ? 'Checking…' : 'Check now'}
          </Button>
        </div>
      )}
      {state?.status.paused && (
        <p
          role="status"
          data-testid="role-sync-paused"
          className="mb-4 flex items-start gap-2 rounded-lg border border-warning/30 bg-warning/10 px-3 py-2 text-sm text-warning-text"
        >
          <PauseCircle className="mt-0.5 size-4 shrink-0" />
          <span>Role sync is paused after held changes were discarded. Save the settings to resume it.</span>
        </p>
      )}
      {state && state.held.length > 0 && (
        <RoleSyncHeld
          held={state.held}
          brake={state.settings.demotionBrake}
          disabled={busy}
          onDecide={(decision) => decide.mutate(decision)}
        />
      )}
      {state && (
        <RoleSyncForm
          state={state}
          roles={
            roles.isPending
              ? { status: 'pending' }
              : roles.isError
                ? {
                    status: 'error',
                    message: roles.error.message,
                    isNotConfigured:
                      roles.error instanceof ApiError && roles.error.code === 'ROLE_SYNC_NOT_CONFIGURED',
                    retry: () => void roles.refetch(),
                  }
                : { status: 'success', roles: roles.data }
          }
          disabled={disabled || decide.isPending}
          isSaving={save.isPending}
          onSave={(body, done) => save.mutate({ body, done })}
        />
      )}
    </Card>
  );
}

/** On, off, or paused, at a glance beside the title. */
function SyncBadge({ state }: { state: RoleSyncState }) {
  if (!state.settings.enabled) return <Badge>Off</Badge>;
  if (state.status.paused) return <Badge tone="warning">Paused</Badge>;
  return <Badge tone="success">On</Badge>;
}

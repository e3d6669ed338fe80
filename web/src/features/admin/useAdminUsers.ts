import { type ClientUser, TEXTS } from '@guildhall/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { getApprovedUsers, readCachedApprovedUsers } from '../../auth/approved-cache.ts';
import { useAuth } from '../../auth/useAuth.ts';
import { fetchAudit, fetchUsers } from './api.ts';

/** Admin API status (portal-core §4): checking, then online after a successful load, offline on failure. */
export type ApiStatus = 'checking' | 'online' | 'offline';

const USERS_KEY = ['admin', 'users'] as const;
const AUDIT_KEY = ['admin', 'audit'] as const;
const OFFLINE_RETRY_MS = 15_000;

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : TEXTS.unexpectedError;
}

/** The approved-users fallback copy, in the client shape (shown while the API is offline). */
function cachedApprovedUsers(): ClientUser[] {
  return (readCachedApprovedUsers() ?? []).map((e) => ({
    id: e.discord_id,
    username: e.username,
    accessLevel: e.access_level,
    isApproved: true,
    provider: 'discord',
  }));
}

/** Everything the admin panel reads and the one way it changes things (`perform`). */
export function useAdminUsers() {
  const queryClient = useQueryClient();
  const auth = useAuth();
  const [error, setError] = useState<string | null>(null);
  const users = useQuery({
    queryKey: USERS_KEY,
    queryFn: fetchUsers,
    retry: false,
    // While offline every button is disabled (Refresh too), so the panel keeps checking by itself.
    refetchInterval: (query) => (query.state.status === 'error' ? OFFLINE_RETRY_MS : false),
  });

  // A background re-check keeps the last verdict until it succeeds: no flicker while offline.
  const status: ApiStatus = users.isError ? 'offline' : users.isSuccess ? 'online' : 'checking';
  const isOffline = status === 'offline';

  const audit = useQuery({
    queryKey: AUDIT_KEY,
    queryFn: fetchAudit,
    retry: false,
    enabled: status === 'online',
  });

  // Lost admin rights meanwhile (lowered by another admin): let the guard re-check and show Access Denied.
  const failure = users.error;
  useEffect(() => {
    if (failure instanceof ApiError && failure.status === 403) void auth.refresh();
  }, [failure, auth.refresh]);

  const all = useMemo(
    () => (isOffline ? cachedApprovedUsers() : (users.data ?? [])),
    [isOffline, users.data],
  );
  const approved = useMemo(() => all.filter((u) => u.isApproved), [all]);
  const pending = useMemo(() => all.filter((u) => !u.isApproved), [all]);

  const action = useMutation({
    mutationFn: (op: () => Promise<unknown>) => op(),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: ['admin'] });
      // Keep the app-wide approved list (navigation gating, offline copy) in step with the change.
      await getApprovedUsers({ force: true }).catch(() => undefined);
    },
  });

  /** Runs one change; on failure shows `failText(message)` in the error banner. Resolves to success. */
  async function perform(
    op: () => Promise<unknown>,
    failText: (message: string) => string,
  ): Promise<boolean> {
    setError(null);
    try {
      await action.mutateAsync(op);
      return true;
    } catch (e) {
      setError(failText(errorMessage(e)));
      return false;
    }
  }

  async function refresh(): Promise<void> {
    setError(null);
    const result = await users.refetch();
    if (result.isError) setError(TEXTS.refreshFailed);
    else void getApprovedUsers({ force: true }).catch(() => undefined);
  }

  return {
    status,
    approved,
    pending,
    audit: audit.data ?? [],
    isBusy: action.isPending,
    isRefreshing: users.isFetching,
    error,
    dismissError: () => setError(null),
    refresh,
    perform,
  };
}

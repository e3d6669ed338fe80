import { DEMO_USER_ID, TEXTS } from '@guildhall/common';
import { CloudOff, RefreshCw } from 'lucide-react';
import { usePublicConfig } from '../../auth/public-config.ts';
import { useAuth } from '../../auth/useAuth.ts';
import { BackLink } from '../../ui/BackLink.tsx';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { Page } from '../../ui/Page.tsx';
import { AddUserForm } from './AddUserForm.tsx';
import { ApiStatusBadge } from './ApiStatusBadge.tsx';
import { ApprovedList } from './ApprovedList.tsx';
import { AuditCard } from './AuditCard.tsx';
import { DiscordCommandsCard } from './DiscordCommandsCard.tsx';
import { DiscordNotesCard } from './DiscordNotesCard.tsx';
import { ErrorBanner } from './ErrorBanner.tsx';
import { OsintReportsCard } from './OsintReportsCard.tsx';
import { PendingList } from './PendingList.tsx';
import { RoleSyncCard } from './RoleSyncCard.tsx';
import { userStats } from './rules.ts';
import { StatCards } from './StatCards.tsx';
import { StorageCard } from './StorageCard.tsx';
import { useAdminUsers } from './useAdminUsers.ts';
import { VersionLine } from './VersionLine.tsx';

/** Admin panel - User Management (portal-core §2). The route guard already requires admin. */
export function AdminPage() {
  const { user } = useAuth();
  const admin = useAdminUsers();
  const config = usePublicConfig();
  const isOnline = admin.status === 'online';
  const isOffline = admin.status === 'offline';
  // Every admin button but Refresh is disabled unless the API is online (and while a change is in flight).
  const disabled = !isOnline || admin.isBusy;

  return (
    <Page>
      <div className="mb-6 flex items-center justify-between gap-3">
        <BackLink to="/dashboard">
          <span>
            Back<span className="hidden sm:inline"> to Dashboard</span>
          </span>
        </BackLink>
        <div className="flex items-center gap-2">
          <ApiStatusBadge status={admin.status} />
          <Button
            variant="secondary"
            size="sm"
            onClick={admin.refresh}
            // Refresh stays usable offline: it is the way to retry (issue 17).
            disabled={admin.isBusy || admin.isRefreshing}
            icon={<RefreshCw className={cn('size-4', admin.isRefreshing && 'animate-spin')} />}
          >
            Refresh
          </Button>
        </div>
      </div>

      <header className="mb-6">
        <p className="text-sm text-muted">Admin Panel</p>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">User Management</h1>
        <VersionLine />
      </header>

      {/* Offline, the offline notice is the one banner: a failed refresh says nothing more. */}
      {admin.error && !isOffline && <ErrorBanner message={admin.error} onDismiss={admin.dismissError} />}
      {isOffline && (
        <p
          role="status"
          data-testid="offline-notice"
          className="mb-6 flex items-center gap-2 rounded-xl border border-warning/30 bg-warning/10 px-4 py-3 text-sm text-warning-text"
        >
          <CloudOff className="size-4 shrink-0" />
          <span className="flex-1">{TEXTS.backendUnavailable}</span>
          <span className="text-xs text-warning-text/80">Press Refresh to try again.</span>
        </p>
      )}

      <StatCards stats={userStats(admin.approved, config?.setupMode ? DEMO_USER_ID : null)} />
      <AddUserForm approved={admin.approved} disabled={disabled} perform={admin.perform} />
      <PendingList
        pending={admin.pending}
        disabled={disabled}
        isOffline={isOffline}
        perform={admin.perform}
      />
      <ApprovedList
        approved={admin.approved}
        selfId={user?.id}
        isOffline={isOffline}
        disabled={disabled}
        perform={admin.perform}
      />
      {isOnline && <RoleSyncCard disabled={disabled} />}
      {isOnline && <DiscordNotesCard disabled={disabled} />}
      {isOnline && <DiscordCommandsCard />}
      {isOnline && <StorageCard disabled={disabled} />}
      {isOnline && <OsintReportsCard disabled={disabled} />}
      {isOnline && <AuditCard entries={admin.audit} />}
    </Page>
  );
}

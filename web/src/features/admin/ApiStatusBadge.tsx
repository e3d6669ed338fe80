import { cn } from '../../ui/cn.ts';
import type { ApiStatus } from './useAdminUsers.ts';

const LOOK: Record<ApiStatus, { label: string; tone: string; dot: string }> = {
  checking: {
    label: 'API Checking…',
    tone: 'border-border bg-surface-2 text-muted',
    dot: 'bg-muted animate-pulse',
  },
  online: {
    label: 'API Online',
    tone: 'border-success/30 bg-success/15 text-success-text',
    dot: 'bg-success',
  },
  offline: { label: 'API Offline', tone: 'border-danger/30 bg-danger/15 text-danger-text', dot: 'bg-danger' },
};

export function ApiStatusBadge({ status }: { status: ApiStatus }) {
  const look = LOOK[status];
  return (
    <span
      role="status"
      data-testid="api-status"
      data-status={status}
      className={cn(
        'inline-flex h-8 items-center gap-2 rounded-full border px-3 text-xs font-medium whitespace-nowrap',
        look.tone,
      )}
    >
      <span className={cn('size-2 rounded-full', look.dot)} aria-hidden="true" />
      {look.label}
    </span>
  );
}

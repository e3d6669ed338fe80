import { type ClientUser, TEXTS } from '@guildhall/common';
import { Check, Clock } from 'lucide-react';
import { toast } from 'sonner';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card, CardTitle } from '../../ui/Card.tsx';
import { updateUser } from './api.ts';
import { UserAvatar } from './UserAvatar.tsx';

type Props = {
  pending: ClientUser[];
  disabled: boolean;
  isOffline: boolean;
  perform: (op: () => Promise<unknown>, failText: (m: string) => string) => Promise<boolean>;
};

/** Pending Approval: Discord accounts that tried to sign in; Approve lets them in on their next try. */
export function PendingList({ pending, disabled, isOffline, perform }: Props) {
  async function approve(user: ClientUser) {
    const ok = await perform(
      () => updateUser(user.id, { is_approved: true }),
      () => TEXTS.approveFailed,
    );
    if (ok) toast.success(`Approved ${user.username}`);
  }

  return (
    <Card className="mb-6" data-testid="pending-users">
      <CardTitle icon={<Clock className="size-4" />} action={<Badge tone="warning">{pending.length}</Badge>}>
        Pending Approval
      </CardTitle>
      {pending.length === 0 ? (
        <p className="text-sm text-muted">
          {isOffline ? 'Pending users are not available offline.' : 'No users are waiting for approval.'}
        </p>
      ) : (
        <ul className="divide-y divide-border/60">
          {pending.map((user) => (
            <li
              key={user.id}
              data-testid={`pending-row-${user.id}`}
              className="flex flex-wrap items-center gap-3 py-3 first:pt-0 last:pb-0"
            >
              <UserAvatar id={user.id} username={user.username} />
              <div className="min-w-0 flex-1">
                <div className="truncate font-medium">{user.username}</div>
                <div className="truncate font-mono text-xs text-muted">{user.id}</div>
              </div>
              {user.email && <div className="hidden truncate text-sm text-muted md:block">{user.email}</div>}
              <Button
                variant="success"
                size="sm"
                icon={<Check className="size-4" />}
                disabled={disabled}
                onClick={() => approve(user)}
                aria-label={`Approve ${user.username}`}
              >
                Approve
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

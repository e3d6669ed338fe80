import { type AccessLevel, type ClientUser, LEVEL_LABELS, memberName, TEXTS } from '@guildhall/common';
import { Check, Clock } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { PENDING_CHANGED_EVENT } from '../../layout/usePendingCount.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card, CardTitle } from '../../ui/Card.tsx';
import { updateUser } from './api.ts';
import { LevelSelect } from './fields.tsx';
import { UserAvatar } from './UserAvatar.tsx';

type Props = {
  pending: ClientUser[];
  disabled: boolean;
  isOffline: boolean;
  perform: (op: () => Promise<unknown>, failText: (m: string) => string) => Promise<boolean>;
};

/**
 * Pending Approval: Discord accounts that tried to sign in; Approve lets them in on their next try at
 * the level chosen beside it (User by default, so the newcomer can use the tools without a second edit).
 */
export function PendingList({ pending, disabled, isOffline, perform }: Props) {
  const [levels, setLevels] = useState<Record<string, AccessLevel>>({});
  const levelOf = (id: string): AccessLevel => levels[id] ?? 'user';

  async function approve(user: ClientUser) {
    const level = levelOf(user.id);
    const ok = await perform(
      () => updateUser(user.id, { is_approved: true, access_level: level }),
      () => TEXTS.approveFailed,
    );
    if (ok) {
      window.dispatchEvent(new Event(PENDING_CHANGED_EVENT));
      toast.success(`Approved ${user.username} as ${LEVEL_LABELS[level]}`);
    }
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
              <UserAvatar id={user.id} username={memberName(user)} />
              <div className="min-w-0 flex-1">
                <div className="truncate font-medium">{memberName(user)}</div>
                {memberName(user) !== user.username && (
                  <div className="truncate text-xs text-muted">@{user.username}</div>
                )}
                <div className="truncate font-mono text-xs text-muted">{user.id}</div>
              </div>
              {user.email && <div className="hidden truncate text-sm text-muted md:block">{user.email}</div>}
              <div className="flex w-full items-center gap-2 sm:w-auto">
                <LevelSelect
                  value={levelOf(user.id)}
                  onChange={(level) => setLevels((all) => ({ ...all, [user.id]: level }))}
                  disabled={disabled}
                  className="h-8 flex-1 sm:w-32 sm:flex-none"
                  aria-label={`Level for ${user.username}`}
                />
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
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

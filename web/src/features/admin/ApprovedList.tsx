import type { ClientUser } from '@guildhall/common';
import { Users } from 'lucide-react';
import { Badge } from '../../ui/Badge.tsx';
import { Card, CardTitle } from '../../ui/Card.tsx';
import { UserRow } from './UserRow.tsx';

type Props = {
  approved: ClientUser[];
  selfId: string | undefined;
  isOffline: boolean;
  disabled: boolean;
  perform: (op: () => Promise<unknown>, failText: (m: string) => string) => Promise<boolean>;
};

export function ApprovedList({ approved, selfId, isOffline, disabled, perform }: Props) {
  return (
    <Card className="mb-6" data-testid="approved-users">
      <CardTitle icon={<Users className="size-4" />} action={<Badge tone="success">{approved.length}</Badge>}>
        Approved Users
      </CardTitle>
      {approved.length === 0 ? (
        <p className="text-sm text-muted">No approved users.</p>
      ) : (
        <ul className="divide-y divide-border/60">
          {approved.map((user) => (
            <UserRow
              key={user.id}
              user={user}
              isSelf={user.id === selfId}
              isCached={isOffline}
              disabled={disabled}
              perform={perform}
            />
          ))}
        </ul>
      )}
    </Card>
  );
}

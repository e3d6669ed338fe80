import type { RealtimeStatus } from '../../realtime/useRealtimeRoom.ts';
import { Badge } from '../../ui/Badge.tsx';

/** Whether game updates arrive live (pushed) or only through polling. */
export function LiveBadge({ status }: { status: RealtimeStatus }) {
  if (status === 'live') {
    return (
      <Badge tone="success" className="gap-1.5">
        <span className="size-1.5 rounded-full bg-success" />
        Live
      </Badge>
    );
  }
  return (
    <Badge tone="neutral" className="gap-1.5">
      <span className="size-1.5 rounded-full bg-muted" />
      {status === 'connecting' ? 'Connecting...' : 'Polling'}
    </Badge>
  );
}

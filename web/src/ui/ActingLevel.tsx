import type { AccessLevel } from '@guildhall/common';
import { Badge } from './Badge.tsx';
import { LevelBadge } from './LevelBadge.tsx';

/**
 * The level a user acts with. In setup mode the access-code identity acts as Admin whatever its
 * stored level, and every screen (dashboard, admin list) says so the same way.
 */
export function ActingLevel({ level, setupMode }: { level: AccessLevel; setupMode: boolean }) {
  if (!setupMode) return <LevelBadge level={level} />;
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5" data-testid="acting-level">
      <LevelBadge level="admin" />
      <Badge tone="warning">Setup mode</Badge>
    </span>
  );
}

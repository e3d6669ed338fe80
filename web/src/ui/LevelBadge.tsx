import { type AccessLevel, LEVEL_LABELS } from '@guildhall/common';
import { Badge } from './Badge.tsx';

const TONE = { viewer: 'neutral', user: 'brand', moderator: 'warning', admin: 'danger' } as const;

export function LevelBadge({ level }: { level: AccessLevel }) {
  return <Badge tone={TONE[level]}>{LEVEL_LABELS[level]}</Badge>;
}

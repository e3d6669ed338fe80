import { Crown, type LucideIcon, Shield, UserRound, Users } from 'lucide-react';
import { cn } from '../../ui/cn.ts';
import type { UserStats } from './rules.ts';

const CARDS: { key: keyof UserStats; label: string; icon: LucideIcon; tone: string }[] = [
  { key: 'total', label: 'Total Users', icon: Users, tone: 'bg-brand/15 text-brand-text' },
  { key: 'admins', label: 'Admins', icon: Crown, tone: 'bg-danger/15 text-danger-text' },
  { key: 'moderators', label: 'Moderators', icon: Shield, tone: 'bg-warning/15 text-warning-text' },
  { key: 'regular', label: 'Regular Users', icon: UserRound, tone: 'bg-success/15 text-success-text' },
];

export function StatCards({ stats }: { stats: UserStats }) {
  return (
    <div className="mb-6 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      {CARDS.map(({ key, label, icon: Icon, tone }) => (
        <div
          key={key}
          data-testid={`stat-${key}`}
          className="flex items-center gap-3 rounded-2xl border border-border bg-surface/80 p-3 sm:p-4"
        >
          <span
            className={cn('flex size-9 shrink-0 items-center justify-center rounded-xl sm:size-10', tone)}
          >
            <Icon className="size-5" />
          </span>
          <div className="min-w-0">
            <div className="text-2xl leading-tight font-bold tabular-nums" data-testid={`stat-${key}-value`}>
              {stats[key]}
            </div>
            <div className="text-xs leading-tight text-muted sm:text-sm">{label}</div>
          </div>
        </div>
      ))}
    </div>
  );
}

import { DEMO_USER_ID, hasLevel, memberName } from '@guildhall/common';
import { FolderOpen, Gamepad2, type LucideIcon, Music, Settings, Shield, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { usePublicConfig } from '../../auth/public-config.ts';
import { useAuth } from '../../auth/useAuth.ts';
import { ActingLevel } from '../../ui/ActingLevel.tsx';
import { Badge } from '../../ui/Badge.tsx';
import { cn } from '../../ui/cn.ts';
import { Page } from '../../ui/Page.tsx';
import { type DashboardCard, dashboardCards, gridColumns } from './cards.ts';

const ICONS: Record<string, LucideIcon> = {
  settings: Settings,
  files: FolderOpen,
  music: Music,
  infosec: Shield,
  minigames: Gamepad2,
  admin: ShieldCheck,
};

export function DashboardPage() {
  const { user } = useAuth();
  const config = usePublicConfig();
  if (!user) return null;
  const cards = dashboardCards(hasLevel(user.accessLevel, 'admin'));
  const cols = gridColumns(cards.length);
  return (
    <Page>
      <header className="mb-8 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-sm text-muted">Dashboard</p>
          <h1 className="text-2xl font-bold tracking-tight wrap-anywhere sm:text-3xl">
            Welcome back, {memberName(user)}!
          </h1>
        </div>
        <div className="flex items-center gap-2 text-sm text-muted">
          Access level{' '}
          <ActingLevel
            level={user.accessLevel}
            setupMode={Boolean(config?.setupMode) && user.id === DEMO_USER_ID}
          />
        </div>
      </header>
      <div
        data-testid="dashboard-grid"
        data-columns={cols}
        className={cn('grid gap-4 sm:grid-cols-2', cols === 3 && 'lg:grid-cols-3')}
      >
        {cards.map((card) => (
          <ToolCard key={card.key} card={card} />
        ))}
      </div>
    </Page>
  );
}

function ToolCard({ card }: { card: DashboardCard }) {
  const Icon = ICONS[card.key] ?? Settings;
  const body = (
    <>
      <div className="mb-4 flex items-start justify-between gap-2">
        <span
          className={cn(
            'flex size-11 items-center justify-center rounded-xl',
            card.adminOnly ? 'bg-danger/15 text-danger-text' : 'bg-brand/15 text-brand-text',
          )}
        >
          <Icon className="size-5" />
        </span>
        {card.comingSoon && <Badge tone="warning">Coming Soon</Badge>}
        {card.adminOnly && <Badge tone="danger">Admin Only</Badge>}
      </div>
      <h2 className="font-semibold">{card.title}</h2>
      <p className="mt-1 text-sm text-muted">{card.description}</p>
    </>
  );
  const base = 'block rounded-2xl border border-border bg-surface/80 p-5 transition';
  if (card.comingSoon) {
    return (
      <div
        className={cn(base, 'cursor-not-allowed opacity-60')}
        aria-disabled="true"
        data-testid={`card-${card.key}`}
      >
        {body}
      </div>
    );
  }
  return (
    <Link
      to={card.to}
      className={cn(base, 'hover:-translate-y-0.5 hover:border-brand/50 hover:bg-surface-2')}
      data-testid={`card-${card.key}`}
    >
      {body}
    </Link>
  );
}

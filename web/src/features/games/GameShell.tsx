import { TICTACTOE_TEXTS as T } from '@guildhall/common';
import { Search } from 'lucide-react';
import type { ReactNode } from 'react';
import type { RealtimeStatus } from '../../realtime/useRealtimeRoom.ts';
import { BackLink } from '../../ui/BackLink.tsx';
import { Button } from '../../ui/Button.tsx';
import { Page } from '../../ui/Page.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { LiveBadge } from './LiveBadge.tsx';

/**
 * The frame every game screen shares: Back to Minigames, the live badge once the player is in a game
 * (`realtime` null before), and the game's title under "Minigames".
 */
export function GameShell({
  title,
  realtime,
  children,
  wide,
  actions,
}: {
  title: string;
  /** Controls beside the live badge (Pictionary's sound toggle). */
  actions?: ReactNode;
  realtime: RealtimeStatus | null;
  children: ReactNode;
  /** A wider column (a running Pictionary game: the canvas takes most of it). */
  wide?: boolean;
}) {
  return (
    <Page wide={wide} className={wide ? 'px-2 sm:px-6' : undefined}>
      <div className="mb-6 flex items-center justify-between gap-3">
        <BackLink to="/minigames">{T.backToMinigames}</BackLink>
        <div className="flex items-center gap-2">
          {actions}
          {realtime && <LiveBadge status={realtime} />}
        </div>
      </div>
      <header className="mb-6">
        <p className="text-sm text-muted">Minigames</p>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
      </header>
      {children}
    </Page>
  );
}

/** A game's Find Game button: a spinner and the game's "finding" text while the request runs. */
export function FindGameButton({
  isFinding,
  onFind,
  label,
  findingLabel,
  className,
}: {
  isFinding: boolean;
  onFind: () => void;
  label: string;
  findingLabel: string;
  className?: string;
}) {
  return (
    <Button
      size="lg"
      className={className}
      onClick={onFind}
      disabled={isFinding}
      icon={isFinding ? <Spinner className="size-4" /> : <Search className="size-4" />}
    >
      {isFinding ? findingLabel : label}
    </Button>
  );
}

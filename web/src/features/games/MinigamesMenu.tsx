import { TICTACTOE_TEXTS as T } from '@guildhall/common';
import { ArrowRight, Grid3x3, type LucideIcon, Palette } from 'lucide-react';
import { Link } from 'react-router';
import { BackLink } from '../../ui/BackLink.tsx';
import { Page } from '../../ui/Page.tsx';

type GameCard = { to: string; title: string; description: string; players: string; icon: LucideIcon };

const GAMES: GameCard[] = [
  {
    to: '/minigames/tic-tac-toe',
    title: T.title,
    description: 'The classic 3×3 duel. Get three in a row before your opponent does.',
    players: '2 players',
    icon: Grid3x3,
  },
  {
    to: '/minigames/pictionary',
    title: T.pictionaryTitle,
    description: 'One player draws, everyone else races to guess the word.',
    players: '2–8 players',
    icon: Palette,
  },
];

/** /minigames (portal-tools §2): the two game cards and a way back to the dashboard. */
export function MinigamesMenu() {
  return (
    <Page>
      <div className="mb-6">
        <BackLink to="/dashboard">{T.backToDashboard}</BackLink>
      </div>
      <header className="mb-8">
        <p className="text-sm text-muted">Play with other members</p>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{T.minigamesTitle}</h1>
      </header>
      <div className="grid gap-4 sm:grid-cols-2">
        {GAMES.map((g) => (
          <Link
            key={g.to}
            to={g.to}
            data-testid={`game-card-${g.to.split('/').pop()}`}
            className="group block rounded-2xl border border-border bg-surface/80 p-6 transition hover:-translate-y-0.5 hover:border-brand/50 hover:bg-surface-2"
          >
            <span className="mb-4 flex size-12 items-center justify-center rounded-xl bg-brand/15 text-brand-text">
              <g.icon className="size-6" />
            </span>
            <h2 className="text-lg font-semibold">{g.title}</h2>
            <p className="mt-1 text-sm text-muted">{g.description}</p>
            <p className="mt-4 flex items-center justify-between text-sm">
              <span className="text-muted">{g.players}</span>
              <span className="flex items-center gap-1 font-medium text-brand-text">
                Play
                <ArrowRight className="size-4 transition-transform group-hover:translate-x-0.5" />
              </span>
            </p>
          </Link>
        ))}
      </div>
    </Page>
  );
}

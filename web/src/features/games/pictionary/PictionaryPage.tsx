import { PICTIONARY_TEXTS as T, TICTACTOE_TEXTS } from '@guildhall/common';
import { Palette, Search } from 'lucide-react';
import { useAuth } from '../../../auth/useAuth.ts';
import { BackLink } from '../../../ui/BackLink.tsx';
import { Button } from '../../../ui/Button.tsx';
import { Card, CardTitle } from '../../../ui/Card.tsx';
import { Page } from '../../../ui/Page.tsx';
import { PageSpinner, Spinner } from '../../../ui/Spinner.tsx';
import { LiveBadge } from '../LiveBadge.tsx';
import { GameView } from './GameView.tsx';
import { Lobby } from './Lobby.tsx';
import { usePictionary } from './usePictionary.ts';

/** /minigames/pictionary (portal-tools §2): entry, lobby, game. */
export function PictionaryPage() {
  const { user } = useAuth();
  const p = usePictionary();
  const game = p.game;

  return (
    <Page>
      <div className="mb-6 flex items-center justify-between gap-3">
        <BackLink to="/minigames">{TICTACTOE_TEXTS.backToMinigames}</BackLink>
        {game && <LiveBadge status={p.realtime} />}
      </div>
      <header className="mb-6">
        <p className="text-sm text-muted">Minigames</p>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{T.title}</h1>
      </header>
      {p.isLookingUp ? (
        <PageSpinner />
      ) : !game || !user ? (
        <EntryCard isFinding={p.isFinding} onFind={p.findGame} />
      ) : game.status === 'lobby' ? (
        <Lobby game={game} myId={user.id} state={p} />
      ) : (
        <GameView game={game} myId={user.id} state={p} />
      )}
    </Page>
  );
}

function EntryCard({ isFinding, onFind }: { isFinding: boolean; onFind: () => void }) {
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <Card className="flex flex-col items-center justify-center gap-5 py-12 text-center">
        <span className="flex size-16 items-center justify-center rounded-2xl bg-brand/15 text-brand-text">
          <Palette className="size-8" />
        </span>
        <div>
          <h2 className="text-lg font-semibold">Draw, guess, win</h2>
          <p className="mt-1 text-sm text-muted">Join a lobby of up to 8 players.</p>
        </div>
        <Button
          size="lg"
          onClick={onFind}
          disabled={isFinding}
          icon={isFinding ? <Spinner className="size-4" /> : <Search className="size-4" />}
        >
          {isFinding ? T.findingGame : T.findGame}
        </Button>
      </Card>
      <Card>
        <CardTitle>{T.howItWorks}</CardTitle>
        <ol className="list-decimal space-y-2 pl-5 text-sm text-muted" data-testid="how-it-works">
          {T.howItWorksSteps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </Card>
    </div>
  );
}

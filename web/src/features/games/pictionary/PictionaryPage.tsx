import { PICTIONARY_TEXTS as T } from '@guildhall/common';
import { Palette, Volume2, VolumeX } from 'lucide-react';
import { useAuth } from '../../../auth/useAuth.ts';
import { Card, CardTitle } from '../../../ui/Card.tsx';
import { PageSpinner } from '../../../ui/Spinner.tsx';
import { FindGameButton, GameShell } from '../GameShell.tsx';
import { GameView } from './GameView.tsx';
import { Lobby } from './Lobby.tsx';
import { usePictionary } from './usePictionary.ts';
import { useSounds } from './useSounds.ts';

/** /minigames/pictionary (portal-tools §2): entry, lobby, game. */
export function PictionaryPage() {
  const { user } = useAuth();
  const p = usePictionary();
  const game = p.game;
  const sound = useSounds(game, user?.id, p.clockOffset);

  return (
    <GameShell
      title={T.title}
      realtime={game ? p.realtime : null}
      wide={game?.status === 'in_progress'}
      actions={
        game && game.status !== 'finished' ? (
          <SoundToggle muted={sound.muted} onToggle={() => sound.setMuted(!sound.muted)} />
        ) : null
      }
    >
      {p.isLookingUp ? (
        <PageSpinner />
      ) : !game || !user ? (
        <EntryCard isFinding={p.isFinding} onFind={p.findGame} />
      ) : game.status === 'lobby' ? (
        <Lobby game={game} myId={user.id} state={p} />
      ) : (
        <GameView game={game} myId={user.id} state={p} />
      )}
    </GameShell>
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
        <FindGameButton
          isFinding={isFinding}
          onFind={onFind}
          label={T.findGame}
          findingLabel={T.findingGame}
        />
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

/** Mute for the game's sound cues, remembered per member on this browser (useSounds.ts). */
function SoundToggle({ muted, onToggle }: { muted: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      aria-pressed={muted}
      title={muted ? T.soundOff : T.soundOn}
      onClick={onToggle}
      data-testid="sound-toggle"
      className="inline-flex h-8 cursor-pointer items-center gap-1.5 rounded-lg border border-border bg-surface-2 px-2.5 text-sm text-text hover:bg-border/60"
    >
      {muted ? <VolumeX className="size-4" /> : <Volume2 className="size-4" />}
      <span className="sr-only sm:not-sr-only">{T.muteSounds}</span>
    </button>
  );
}

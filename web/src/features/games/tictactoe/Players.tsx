import type { Mark, TicTacToeGame, TicTacToePlayer } from '@guildhall/common';
import { cn } from '../../../ui/cn.ts';
import { MarkIcon } from './Mark.tsx';

/** Player X and Player O side by side; the one whose turn it is stands out. */
export function Players({ game, myId }: { game: TicTacToeGame; myId: string }) {
  const active = game.status === 'in_progress' ? game.currentPlayer : null;
  const waitingName = game.invited ? `${game.invited.username} (invited)` : 'Waiting...';
  return (
    <div className="grid grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)] items-stretch gap-2 sm:gap-3">
      <PlayerCard mark="X" player={game.player1} myId={myId} isActive={active === 'X'} />
      <span className="self-center text-xs font-semibold uppercase tracking-widest text-muted">vs</span>
      <PlayerCard
        mark="O"
        player={game.player2}
        placeholder={waitingName}
        myId={myId}
        isActive={active === 'O'}
      />
    </div>
  );
}

function PlayerCard({
  mark,
  player,
  placeholder,
  myId,
  isActive,
}: {
  mark: Mark;
  player: TicTacToePlayer | null;
  placeholder?: string;
  myId: string;
  isActive: boolean;
}) {
  const isMe = player?.id === myId;
  return (
    <div
      data-testid={`player-${mark}`}
      data-active={isActive ? 'true' : 'false'}
      className={cn(
        'relative min-w-0 rounded-xl border px-2.5 py-2.5 transition-all sm:px-4 sm:py-3',
        isActive ? 'border-brand bg-brand/15 ring-2 ring-brand/40' : 'border-border bg-surface-2/60',
      )}
    >
      <div className="flex flex-wrap items-center gap-x-1.5 gap-y-1 sm:gap-x-2">
        <MarkIcon mark={mark} className="size-4 shrink-0 sm:size-5" />
        <span className="whitespace-nowrap text-xs font-medium uppercase tracking-wide text-muted">
          Player {mark}
        </span>
        {isMe && (
          <span className="ml-auto shrink-0 rounded-full bg-surface px-1.5 text-[10px] font-semibold uppercase tracking-wide text-muted">
            You
          </span>
        )}
      </div>
      <p
        data-testid={`player-${mark}-name`}
        className={cn('mt-1 truncate font-semibold', !player && 'font-normal italic text-muted')}
        title={player?.username}
      >
        {player ? player.username : placeholder}
      </p>
      {isActive && (
        <span className="mt-1.5 inline-flex items-center gap-1.5 rounded-full bg-brand px-2 py-0.5 text-[11px] font-semibold text-white">
          <span className="size-1.5 animate-pulse rounded-full bg-white" />
          {isMe ? 'Your turn' : 'Their turn'}
        </span>
      )}
    </div>
  );
}

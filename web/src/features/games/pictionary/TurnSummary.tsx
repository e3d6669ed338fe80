import { type PictionaryGame, PICTIONARY_TEXTS as T } from '@guildhall/common';
import { Trophy } from 'lucide-react';
import { Card } from '../../../ui/Card.tsx';
import { cn } from '../../../ui/cn.ts';

/** At the reveal, on every screen: the points each player gained in the turn just over (issue 29). */
export function TurnSummary({ game }: { game: PictionaryGame }) {
  const rows = game.turnSummary ?? [];
  return (
    <Card className="p-3 sm:p-4" data-testid="turn-summary">
      <p className="flex items-center gap-2 font-medium">
        <Trophy className="size-4 text-warning-text" />
        {T.turnSummary}
      </p>
      {game.currentWord === null && <p className="mt-1 text-sm text-muted">{T.noWordChosen}</p>}
      <ul className="mt-2 grid grid-cols-1 gap-1.5 sm:grid-cols-2">
        {rows.map((r) => (
          <li
            key={r.playerId}
            data-testid="turn-summary-row"
            className="flex items-center justify-between gap-2 rounded-lg bg-surface-2 px-3 py-1.5 text-sm"
          >
            <span className="min-w-0 truncate">{r.playerUsername}</span>
            <span
              className={cn('font-semibold tabular-nums', r.points > 0 ? 'text-success-text' : 'text-muted')}
            >
              +{r.points}
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

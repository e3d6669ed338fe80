import { TICTACTOE_TEXTS as T, type TicTacToeGame } from '@guildhall/common';
import { Info } from 'lucide-react';
import { Card, CardTitle } from '../../../ui/Card.tsx';
import { STATUS_LABELS } from './game-view.ts';

/** The spec's Game Status box: game id, status, current turn and winner. */
export function GameStatusBox({ game }: { game: TicTacToeGame }) {
  const turnPlayer = game.currentPlayer === 'X' ? game.player1 : game.player2;
  const turnName = game.status === 'in_progress' ? turnPlayer?.username : undefined;
  const rows: [string, string, string][] = [
    ['Game ID', 'game-id', game.id],
    ['Status', 'game-status', STATUS_LABELS[game.status]],
    ['Current Turn', 'game-turn', game.status === 'in_progress' ? game.currentPlayer : '—'],
    ['Winner', 'game-winner', game.winner === 'draw' ? 'Draw' : (game.winner ?? '—')],
  ];
  // A rematch chain keeps score (issue 29): "alice 2 – 1 bob, 1 draw".
  const s = game.series;
  if (game.player2 && (game.rematchOf || s.games > 1)) {
    const [a, b] = [game.player1, game.player2];
    const draws = s.draws > 0 ? `, ${s.draws} draw${s.draws > 1 ? 's' : ''}` : '';
    rows.push([
      T.series,
      'game-series',
      `${a.username} ${s.wins[a.id] ?? 0} – ${s.wins[b.id] ?? 0} ${b.username}${draws}`,
    ]);
  }
  return (
    <Card className="p-4 sm:p-5">
      <CardTitle icon={<Info className="size-4" />}>Game Status</CardTitle>
      <dl className="space-y-2.5 text-sm">
        {rows.map(([label, testId, value]) => (
          <div key={label} className="flex items-baseline justify-between gap-3">
            <dt className="shrink-0 text-muted">{label}</dt>
            <dd
              data-testid={testId}
              className={testId === 'game-id' ? 'truncate font-mono text-xs text-text/90' : 'font-medium'}
              title={testId === 'game-id' ? value : undefined}
            >
              {value}
              {testId === 'game-turn' && turnName && (
                <span className="ml-1.5 font-normal text-muted">({turnName})</span>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

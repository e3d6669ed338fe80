import {
  PICTIONARY_BRUSH,
  PICTIONARY_QUICK_COLORS,
  type PictionaryGame,
  PICTIONARY_TEXTS as T,
} from '@guildhall/common';
import { Clock, Eye, LogOut, Pencil, RotateCcw, Search, Send, Trophy } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { Badge } from '../../../ui/Badge.tsx';
import { Button } from '../../../ui/Button.tsx';
import { Card, CardTitle } from '../../../ui/Card.tsx';
import { cn } from '../../../ui/cn.ts';
import { DrawingCanvas, type DrawingTool } from './DrawingCanvas.tsx';
import { DrawingTools } from './DrawingTools.tsx';
import { ranking, secondsLeft } from './game-view.ts';
import type { usePictionary } from './usePictionary.ts';

type State = ReturnType<typeof usePictionary>;

/** The game (portal-tools §2): header, players, canvas and tools, guesses, or the final ranking. */
export function GameView({ game, myId, state }: { game: PictionaryGame; myId: string; state: State }) {
  const isDrawer = game.status === 'in_progress' && game.currentDrawer?.id === myId;
  const [color, setColor] = useState<string>(PICTIONARY_QUICK_COLORS[0]);
  const [size, setSize] = useState<number>(PICTIONARY_BRUSH.default);
  const [tool, setTool] = useState<DrawingTool>('brush');
  const initial = useCallback(() => {
    const held = state.drawing.current;
    return held && held.gameId === game.id && held.turn === game.turnNumber ? held.segments : [];
  }, [state.drawing, game.id, game.turnNumber]);

  if (game.status === 'finished') return <GameComplete game={game} state={state} />;
  const drawing = isDrawer && game.turnPhase === 'drawing';

  // Desktop: the canvas takes most of the width, players and guesses in a column beside it. Phone: the
  // canvas full width, the guess box right under it (in view with the on-screen keyboard open), then the
  // guesses and the players.
  return (
    <div className="grid grid-cols-1 gap-3 lg:grid-cols-[minmax(0,1fr)_17rem] lg:gap-4">
      <TurnHeader game={game} isDrawer={isDrawer} offset={state.clockOffset} />
      <div className="min-w-0 space-y-3">
        <DrawingCanvas
          handle={state.canvas}
          turnNumber={game.turnNumber}
          initial={initial}
          canDraw={drawing}
          tool={tool}
          color={color}
          size={size}
          onSend={state.sendStrokes}
        />
        {drawing ? (
          <DrawingTools
            tool={tool}
            color={color}
            size={size}
            onTool={setTool}
            onColor={(c) => {
              setColor(c);
              if (tool === 'eraser') setTool('brush'); // picking a colour means painting with it
            }}
            onSize={setSize}
            onUndo={() => {
              if (state.canvas.current?.undoLast())
                state.sendStrokes({ type: 'undo', timestamp: Date.now() });
            }}
            onClear={() => {
              state.canvas.current?.replace(game.turnNumber, []);
              state.drawing.current = { gameId: game.id, turn: game.turnNumber, segments: [] };
              state.sendStrokes({ type: 'clear', timestamp: Date.now() });
            }}
          />
        ) : (
          <GuessBox game={game} isDrawer={isDrawer} state={state} />
        )}
      </div>
      <div className="flex min-w-0 flex-col gap-3 lg:row-span-1">
        <GuessList game={game} />
        <Card className="p-4 sm:p-4">
          <PlayerList game={game} />
          <Button
            variant="danger"
            size="sm"
            className="mt-4 w-full"
            icon={<LogOut className="size-4" />}
            onClick={state.leaveGame}
          >
            {T.leaveGame}
          </Button>
        </Card>
      </div>
    </div>
  );
}

function TurnHeader({ game, isDrawer, offset }: { game: PictionaryGame; isDrawer: boolean; offset: number }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => tick((n) => n + 1), 250);
    return () => clearInterval(t);
  }, []);
  const left = secondsLeft(game, offset);
  const drawer = game.currentDrawer?.username ?? '';
  const revealing = game.turnPhase === 'reveal';
  return (
    <Card className="p-3 sm:p-4 lg:col-span-2" data-testid="turn-header">
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-3">
          <span data-testid="round-indicator">
            <Badge tone="brand" className="text-sm">
              R{game.roundNumber} of {game.maxRounds}
            </Badge>
          </span>
          {revealing ? (
            <p className="min-w-0 font-medium [overflow-wrap:anywhere]" data-testid="drawer-prompt">
              {T.theWordWas}{' '}
              <span className="font-bold text-success-text" data-testid="revealed-word">
                {game.currentWord}
              </span>
            </p>
          ) : isDrawer ? (
            <p className="flex min-w-0 flex-wrap items-center gap-2 font-medium" data-testid="drawer-prompt">
              <Pencil className="size-4 shrink-0 text-brand" />
              <span className="shrink-0">{T.youreDrawing}</span>
              {/* The whole word, wrapping on a narrow screen: never cut (issue 29). */}
              <span
                className="min-w-0 rounded-lg bg-surface-2 px-2 py-0.5 font-bold tracking-wide [overflow-wrap:anywhere]"
                data-testid="secret-word"
              >
                {game.currentWord}
              </span>
            </p>
          ) : (
            <p className="flex min-w-0 flex-wrap items-center gap-2 font-medium" data-testid="drawer-prompt">
              <span className="truncate">{drawer} is drawing</span>
              <Badge tone="success" className="gap-1">
                <Eye className="size-3" />
                {T.watchAndGuess}
              </Badge>
            </p>
          )}
        </div>
        <div className="flex items-center gap-4">
          {!isDrawer && !revealing && game.wordPattern && (
            <span
              className="font-mono text-lg tracking-[0.3em] [overflow-wrap:anywhere]"
              data-testid="word-pattern"
            >
              {game.wordPattern}
            </span>
          )}
          {left !== null && (
            <span className="flex items-center gap-1 font-mono text-lg tabular-nums" data-testid="time-left">
              <Clock className="size-4 text-muted" />
              {left}s
            </span>
          )}
        </div>
      </div>
    </Card>
  );
}

function PlayerList({ game }: { game: PictionaryGame }) {
  return (
    <ul className="space-y-2" data-testid="game-players">
      {game.players.map((p) => {
        const drawing = p.id === game.currentDrawer?.id;
        const guessed = game.guesses.some((g) => g.playerId === p.id && g.isCorrect);
        const away = game.awayIds.includes(p.id);
        return (
          <li
            key={p.id}
            data-testid={`player-${p.username}`}
            className={cn(
              'flex items-center justify-between gap-2 rounded-xl border px-3 py-2',
              drawing
                ? 'border-brand/50 bg-brand/10'
                : guessed
                  ? 'border-success/40 bg-success/10'
                  : 'border-border bg-surface-2',
            )}
          >
            <span className="min-w-0">
              <span className="block truncate text-sm font-medium">{p.username}</span>
              <span className="text-xs text-muted">
                {drawing ? T.drawing : T.guessing}
                {away && <span data-testid="away"> · {T.away}</span>}
              </span>
            </span>
            <span className="text-sm font-semibold tabular-nums" data-testid="points">
              {game.playerScores[p.id] ?? 0}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function GuessList({ game }: { game: PictionaryGame }) {
  return (
    <Card className="flex flex-col p-4 sm:p-4">
      <CardTitle>{T.guesses}</CardTitle>
      <ul
        className="max-h-64 min-h-16 space-y-1.5 overflow-y-auto text-sm lg:max-h-[24rem]"
        data-testid="guesses"
      >
        {game.guesses.length === 0 && <li className="text-muted">{T.noGuesses}</li>}
        {game.guesses.map((g, i) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: guesses are append-only within a turn
            key={i}
            data-testid="guess"
            className={cn(
              'rounded-lg px-2.5 py-1.5 [overflow-wrap:anywhere]',
              g.isCorrect ? 'border border-success/40 bg-success/15 text-success-text' : 'bg-surface-2',
            )}
          >
            {g.isCorrect && g.guess === null ? (
              <span className="font-medium">{T.guessedTheWord(g.playerUsername)}</span>
            ) : (
              <>
                <span className="font-semibold">{g.playerUsername}:</span> {g.guess}
                {g.isCorrect && <span className="ml-1 font-semibold">{T.correctAnswer}</span>}
                {g.isPrivate && <span className="ml-1 text-xs text-muted">({T.onlyYou})</span>}
              </>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** Under the canvas: the guess box for a guesser, else what this player is waiting for. */
function GuessBox({ game, isDrawer, state }: { game: PictionaryGame; isDrawer: boolean; state: State }) {
  const [text, setText] = useState('');
  const canGuess = !isDrawer && game.turnPhase === 'drawing' && !game.hasGuessed;
  return (
    <Card className="p-3 sm:p-3" data-testid="guess-box">
      {canGuess ? (
        <form
          className="flex gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            const guess = text.trim();
            if (!guess) return;
            setText('');
            void state.submitGuess(guess);
          }}
        >
          <input
            value={text}
            onChange={(e) => setText(e.target.value)}
            // On a phone the keyboard opens over the page: keep the box in view above it.
            onFocus={(e) => e.currentTarget.scrollIntoView({ block: 'nearest' })}
            placeholder={T.guessPlaceholder}
            aria-label={T.guessPlaceholder}
            maxLength={100}
            enterKeyHint="send"
            autoComplete="off"
            className="min-w-0 flex-1 rounded-lg border border-border bg-surface-2 px-3 py-2 text-base outline-none focus:border-brand sm:text-sm"
          />
          <Button
            type="submit"
            aria-label="Send guess"
            disabled={text.trim() === ''}
            icon={<Send className="size-4" />}
          />
        </form>
      ) : (
        <p className="py-1 text-center text-sm text-muted">
          {isDrawer && game.turnPhase === 'drawing'
            ? T.youreDrawing
            : game.turnPhase === 'reveal'
              ? T.turnOverPanel
              : game.hasGuessed
                ? T.youGuessedIt
                : T.waitForTurn}
        </p>
      )}
    </Card>
  );
}

function GameComplete({ game, state }: { game: PictionaryGame; state: State }) {
  const ranked = ranking(game);
  return (
    <Card className="mx-auto max-w-xl text-center">
      <Trophy className="mx-auto size-10 text-warning-text" />
      <h2 className="mt-3 text-2xl font-bold">{T.gameComplete}</h2>
      {game.currentWord && (
        <p className="mt-1 text-sm text-muted">
          {T.theWordWas} <span className="font-semibold text-text">{game.currentWord}</span>
        </p>
      )}
      <ol className="mt-5 space-y-2 text-left" data-testid="final-ranking">
        {ranked.map((p, i) => (
          <li
            key={p.id}
            className="flex items-center justify-between rounded-xl border border-border bg-surface-2 px-4 py-2.5"
          >
            <span className="font-medium">
              {i + 1}. {p.username}
            </span>
            <span className="font-semibold tabular-nums">{p.points} pts</span>
          </li>
        ))}
      </ol>
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        <Button
          icon={<RotateCcw className="size-4" />}
          onClick={state.playAgain}
          disabled={state.isPlayingAgain}
        >
          {T.playAgain}
        </Button>
        <Button
          variant="secondary"
          icon={<Search className="size-4" />}
          onClick={state.findNewGame}
          disabled={state.isFinding}
        >
          {T.findNewGame}
        </Button>
        <Button variant="ghost" icon={<LogOut className="size-4" />} onClick={state.leaveGame}>
          {T.leaveGame}
        </Button>
      </div>
    </Card>
  );
}

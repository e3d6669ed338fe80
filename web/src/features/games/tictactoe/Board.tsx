import type { Cell, Mark } from '@guildhall/common';
import { type KeyboardEvent, useRef, useState } from 'react';
import { cn } from '../../../ui/cn.ts';
import { MarkIcon } from './Mark.tsx';

type Props = {
  board: readonly Cell[];
  mine: Mark | null;
  isMyTurn: boolean;
  currentPlayer: Mark;
  isActive: boolean;
  isBusy: boolean;
  lastMove: number | null;
  winningCells: readonly number[];
  onMove: (position: number) => void;
};

const cellName = (i: number) => `Row ${Math.floor(i / 3) + 1}, column ${(i % 3) + 1}`;

/** The cell an arrow key leads to from `i` (stays at the edge), or null for other keys. */
export function neighbourCell(i: number, key: string): number | null {
  const row = Math.floor(i / 3);
  const col = i % 3;
  switch (key) {
    case 'ArrowUp':
      return Math.max(0, row - 1) * 3 + col;
    case 'ArrowDown':
      return Math.min(2, row + 1) * 3 + col;
    case 'ArrowLeft':
      return row * 3 + Math.max(0, col - 1);
    case 'ArrowRight':
      return row * 3 + Math.min(2, col + 1);
    case 'Home':
      return row * 3;
    case 'End':
      return row * 3 + 2;
    default:
      return null;
  }
}

/**
 * The 3×3 board. On your turn it lights up in your colour and empty cells show your mark on hover; on
 * the opponent's turn it dims and the cells cannot be pressed.
 */
export function Board({
  board,
  mine,
  isMyTurn,
  currentPlayer,
  isActive,
  isBusy,
  lastMove,
  winningCells,
  onMove,
}: Props) {
  const playable = isActive && isMyTurn && !isBusy;
  // One tab stop for the board (roving tabindex); arrows move between cells. Cells that cannot be
  // played are aria-disabled rather than disabled, so focus stays on the cell just played.
  const [focusIndex, setFocusIndex] = useState(0);
  const cells = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, i: number) => {
    const next = neighbourCell(i, e.key);
    if (next === null) return;
    e.preventDefault();
    setFocusIndex(next);
    cells.current[next]?.focus();
  };
  return (
    <div
      data-testid="board"
      data-turn={isActive ? currentPlayer : ''}
      data-my-turn={isActive && isMyTurn ? 'true' : 'false'}
      className={cn(
        'mx-auto grid aspect-square w-full max-w-[22rem] grid-cols-3 grid-rows-3 gap-2 rounded-2xl border-2 p-2 transition-all sm:gap-3 sm:p-3',
        isActive && isMyTurn
          ? 'border-brand bg-brand/10 shadow-[0_0_0_4px_rgb(88_101_242/0.18),0_0_40px_rgb(88_101_242/0.25)]'
          : 'border-border bg-surface/60',
        isActive && !isMyTurn && 'opacity-80',
      )}
    >
      {board.map((cell, i) => {
        const isWinning = winningCells.includes(i);
        const isEmpty = cell === '';
        const canPlay = playable && isEmpty;
        return (
          <button
            // biome-ignore lint/suspicious/noArrayIndexKey: the nine cells are fixed positions.
            key={i}
            type="button"
            data-testid={`cell-${i}`}
            data-mark={cell}
            ref={(el) => {
              cells.current[i] = el;
            }}
            aria-label={`${cellName(i)}: ${cell || 'empty'}`}
            aria-disabled={!canPlay}
            tabIndex={i === focusIndex ? 0 : -1}
            onFocus={() => setFocusIndex(i)}
            onKeyDown={(e) => onKeyDown(e, i)}
            onClick={() => {
              if (canPlay) onMove(i);
            }}
            className={cn(
              'group relative flex items-center justify-center rounded-xl border transition-colors',
              'aria-disabled:cursor-not-allowed focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand',
              isWinning
                ? 'border-success/60 bg-success/20'
                : i === lastMove
                  ? 'border-muted/40 bg-surface-2'
                  : 'border-border bg-surface-2/70',
              canPlay && 'cursor-pointer hover:border-brand/70 hover:bg-brand/15',
            )}
          >
            {cell ? (
              <MarkIcon
                mark={cell}
                className={cn('size-3/5', isWinning && 'drop-shadow-[0_0_8px_currentColor]')}
              />
            ) : (
              playable &&
              mine && (
                <MarkIcon
                  mark={mine}
                  className="size-3/5 opacity-0 transition-opacity group-hover:opacity-30"
                />
              )
            )}
          </button>
        );
      })}
    </div>
  );
}

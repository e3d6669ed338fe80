import { TICTACTOE_TEXTS as T, TICTACTOE_ABSENT_AFTER_MS } from '@guildhall/common';
import { Link2, LogOut, RotateCcw, Search, TriangleAlert, Trophy, UserPlus, UserX } from 'lucide-react';
import { useEffect } from 'react';
import { useAuth } from '../../../auth/useAuth.ts';
import { Button } from '../../../ui/Button.tsx';
import { Card } from '../../../ui/Card.tsx';
import { PageSpinner, Spinner } from '../../../ui/Spinner.tsx';
import { FindGameButton, GameShell } from '../GameShell.tsx';
import { InviteLinkField } from '../InviteLinkField.tsx';
import { Board } from './Board.tsx';
import { GameStatusBox } from './GameStatusBox.tsx';
import { describeGame } from './game-view.ts';
import { MarkIcon } from './Mark.tsx';
import { Players } from './Players.tsx';
import { StatusLines } from './StatusLines.tsx';
import { useTicTacToe } from './useTicTacToe.ts';

/** /minigames/tic-tac-toe (portal-tools §2): Find Game, then the game view. */
export function TicTacToePage() {
  const { user } = useAuth();
  const ttt = useTicTacToe();
  const game = ttt.game;
  const view = game && user ? describeGame(game, user.id) : null;
  useTurnTitle(view?.isMyTurn ?? false);

  return (
    <GameShell title={T.title} realtime={game ? ttt.realtime : null}>
      {ttt.isLookingUp ? (
        <PageSpinner />
      ) : !game || !view || !user ? (
        <FindGameCard
          isFinding={ttt.isFinding}
          onFind={ttt.findGame}
          isInviting={ttt.isInviting}
          onInvite={ttt.inviteFriend}
          inviteError={ttt.inviteError}
        />
      ) : (
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
          <Card className="space-y-5">
            <Players game={game} myId={user.id} />
            <StatusLines view={view} />
            {game.isPrivate && game.status === 'waiting' && game.player1.id === user.id && (
              <InviteLink gameId={game.id} />
            )}
            <Board
              board={game.board}
              mine={view.mine}
              isMyTurn={view.isMyTurn}
              currentPlayer={game.currentPlayer}
              isActive={game.status === 'in_progress'}
              isBusy={ttt.isMoving}
              lastMove={game.lastMove}
              winningCells={view.winningCells}
              onMove={ttt.makeMove}
            />
            {view.canClaim && (
              <p
                data-testid="opponent-left"
                className="flex items-center justify-center gap-2 rounded-xl border border-warning/30 bg-warning/10 px-4 py-2.5 text-sm font-medium text-warning-text"
              >
                <UserX className="size-4" />
                {T.opponentLeft}
              </p>
            )}
            {view.rematchOffered && view.opponent && (
              <p
                data-testid="rematch-offer"
                className="flex items-center justify-center gap-2 rounded-xl border border-success/30 bg-success/10 px-4 py-2.5 text-sm font-medium text-success-text"
              >
                <RotateCcw className="size-4" />
                {view.opponent.username} wants a rematch!
              </p>
            )}
            <div className="flex flex-col gap-2 pt-1 sm:flex-row sm:flex-wrap sm:justify-center">
              {view.canClaim && (
                <Button
                  variant="success"
                  onClick={ttt.claimWin}
                  disabled={ttt.isClaiming}
                  icon={ttt.isClaiming ? <Spinner className="size-4" /> : <Trophy className="size-4" />}
                >
                  {T.claimWin}
                </Button>
              )}
              {game.status === 'finished' && view.canRematch && (
                <Button
                  variant={view.rematchOffered ? 'success' : 'primary'}
                  onClick={ttt.requestRematch}
                  disabled={ttt.isRematching}
                  icon={ttt.isRematching ? <Spinner className="size-4" /> : <RotateCcw className="size-4" />}
                >
                  {view.rematchOffered ? T.acceptRematch : T.rematch}
                </Button>
              )}
              {game.status === 'finished' && (
                <Button
                  variant="secondary"
                  onClick={ttt.findGame}
                  disabled={ttt.isFinding}
                  icon={<Search className="size-4" />}
                >
                  Find New Game
                </Button>
              )}
              <Button
                variant="danger"
                onClick={ttt.leaveGame}
                disabled={ttt.isLeaving}
                icon={<LogOut className="size-4" />}
              >
                {T.leaveGame}
              </Button>
            </div>
          </Card>
          <aside className="space-y-4">
            <GameStatusBox game={game} />
            <HowToPlay />
          </aside>
        </div>
      )}
    </GameShell>
  );
}

/** The link of a private game, with a copy button, for its creator while it waits (issue 29). */
function InviteLink({ gameId }: { gameId: string }) {
  const url = `${window.location.origin}/minigames/tic-tac-toe?join=${gameId}`;
  return (
    <div className="rounded-xl border border-border bg-surface-2 p-3 sm:p-4" data-testid="invite-box">
      <p className="mb-1.5 flex items-center gap-1.5 text-sm font-medium">
        <Link2 className="size-4 text-muted" />
        {T.inviteLink}
      </p>
      <InviteLinkField url={url} label={T.inviteLink} inputClassName="bg-surface" />
      <p className="mt-2 text-xs text-muted">{T.inviteHint}</p>
    </div>
  );
}

function FindGameCard({
  isFinding,
  onFind,
  isInviting,
  onInvite,
  inviteError,
}: {
  isFinding: boolean;
  onFind: () => void;
  isInviting: boolean;
  onInvite: () => void;
  inviteError: string | null;
}) {
  return (
    <Card className="mx-auto max-w-lg py-10 text-center">
      {inviteError && (
        <p
          role="alert"
          data-testid="invite-error"
          className="mb-6 flex items-center justify-center gap-2 rounded-xl border border-warning/30 bg-warning/10 px-4 py-2.5 text-sm font-medium text-warning-text"
        >
          <TriangleAlert className="size-4 shrink-0" />
          {inviteError}
        </p>
      )}
      <div className="mb-5 flex items-center justify-center gap-3" aria-hidden>
        <MarkIcon mark="X" className="size-10" />
        <MarkIcon mark="O" className="size-9" />
      </div>
      <h2 className="text-lg font-semibold">Play against another member</h2>
      <p className="mx-auto mt-1 max-w-sm text-sm text-muted">
        You will meet the player who has been waiting longest, or wait for the next one. X moves first.
      </p>
      <FindGameButton
        className="mt-6"
        isFinding={isFinding}
        onFind={onFind}
        label={T.findGame}
        findingLabel={T.findingGame}
      />
      <div className="mt-3">
        <Button
          variant="secondary"
          onClick={onInvite}
          disabled={isInviting}
          icon={isInviting ? <Spinner className="size-4" /> : <UserPlus className="size-4" />}
        >
          {isInviting ? T.invitingFriend : T.inviteFriend}
        </Button>
      </div>
    </Card>
  );
}

function HowToPlay() {
  return (
    <Card className="p-4 text-sm text-muted sm:p-5">
      <h2 className="mb-2 font-semibold text-text">How to play</h2>
      <ul className="list-disc space-y-1 pl-4">
        <li>Player 1 is X and moves first.</li>
        <li>Take turns placing your mark on an empty cell.</li>
        <li>Three in a row wins; a full board is a draw.</li>
        <li>Leaving a game in progress gives your opponent the win.</li>
        <li>
          If your opponent is gone for {TICTACTOE_ABSENT_AFTER_MS / 1000} seconds, you can claim the win.
        </li>
      </ul>
    </Card>
  );
}

/** Puts "Your turn" in the tab title, so a player in another tab sees it too. */
function useTurnTitle(isMyTurn: boolean) {
  useEffect(() => {
    const previous = document.title;
    document.title = isMyTurn ? `(Your turn) ${T.title} · Guildhall` : `${T.title} · Guildhall`;
    return () => {
      document.title = previous;
    };
  }, [isMyTurn]);
}

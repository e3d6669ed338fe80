import {
  TICTACTOE_TEXTS as T,
  TICTACTOE_POLL_MS,
  TICTACTOE_STATE_EVENT,
  type TicTacToeGame,
  tictactoeRoom,
} from '@guildhall/common';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { useAuth } from '../../../auth/useAuth.ts';
import { useRealtimeRoom } from '../../../realtime/useRealtimeRoom.ts';
import * as api from './api.ts';
import { newerGame } from './game-view.ts';

const currentKey = ['tictactoe', 'current'] as const;
const gameKey = (id: string | null) => ['tictactoe', 'game', id] as const;

/** Stores a state of a game unless the cache already holds a later one. */
function store(qc: QueryClient, game: TicTacToeGame): void {
  qc.setQueryData<TicTacToeGame>(gameKey(game.id), (held) => newerGame(held, game));
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * The tic-tac-toe screen's state: the user's game looked up on open, kept fresh by realtime pushes and,
 * as the spec says, by polling every 2 s while waiting or in progress; plus the player's actions.
 */
export function useTicTacToe() {
  const { token } = useAuth();
  const qc = useQueryClient();
  const [gameId, setGameId] = useState<string | null>(null);
  const [lookedUp, setLookedUp] = useState(false);

  // On opening the screen, an existing game of the user is looked up (portal-tools §4).
  const current = useQuery({ queryKey: currentKey, queryFn: api.fetchCurrentGame, gcTime: 0, retry: 1 });
  // An invite link (`?join=<id>`, issue 29): once the user's own game is known, take the seat it offers (or
  // show the game, if it is theirs already), then drop the parameter so a reload does not ask again.
  const [params, setParams] = useSearchParams();
  const inviteId = params.get('join');
  const [inviteError, setInviteError] = useState<string | null>(null);
  useEffect(() => {
    if (lookedUp || (!current.isSuccess && !current.isError)) return;
    setLookedUp(true);
    if (current.data) {
      store(qc, current.data);
      setGameId(current.data.id);
    }
    if (inviteId && current.data?.id !== inviteId) {
      api.joinByLink(inviteId).then(
        (g) => {
          store(qc, g);
          setGameId(g.id);
        },
        (e: unknown) => setInviteError(message(e)),
      );
    }
    if (inviteId) setParams({}, { replace: true });
  }, [lookedUp, current.isSuccess, current.isError, current.data, qc, inviteId, setParams]);

  const game = useQuery({
    queryKey: gameKey(gameId),
    queryFn: async () => newerGame(qc.getQueryData(gameKey(gameId)), await api.fetchGame(gameId!)),
    enabled: gameId !== null,
    refetchInterval: (q) => (q.state.data && q.state.data.status !== 'finished' ? TICTACTOE_POLL_MS : false),
    refetchIntervalInBackground: true,
  });

  const realtime = useRealtimeRoom(gameId ? tictactoeRoom(gameId) : null, TICTACTOE_STATE_EVENT, (push) => {
    if (push.game.id === gameId) store(qc, push.game);
  });

  const show = useCallback(
    (next: TicTacToeGame) => {
      store(qc, next);
      setGameId(next.id);
    },
    [qc],
  );

  const find = useMutation({
    mutationFn: api.joinGame,
    onSuccess: show,
    onError: (e) => toast.error(T.joinFailed, { description: message(e) }),
  });

  const move = useMutation({
    mutationFn: ({ id, position }: { id: string; position: number }) => api.makeMove(id, position),
    onSuccess: (next) => store(qc, next),
    onError: (e) => toast.error(T.moveFailed, { description: message(e) }),
  });

  const leave = useMutation({
    // A finished game too: the server notes it, so the opponent is no longer offered a rematch.
    mutationFn: async (g: TicTacToeGame) => api.leaveGame(g.id),
    onSuccess: (left) => {
      store(qc, left);
      qc.setQueryData(currentKey, null);
      setGameId(null);
    },
    onError: (e) => toast.error('Failed to leave game', { description: message(e) }),
  });

  const invite = useMutation({
    mutationFn: api.createInvite,
    onSuccess: show,
    onError: (e) => toast.error(T.inviteFailed, { description: message(e) }),
  });

  const claim = useMutation({
    mutationFn: api.claimWin,
    onSuccess: (won) => store(qc, won),
    onError: (e) => toast.error(T.claimFailed, { description: message(e) }),
  });

  const rematch = useMutation({
    mutationFn: api.requestRematch,
    onSuccess: show,
    onError: (e) => toast.error('Failed to start a rematch', { description: message(e) }),
  });

  // Closing the tab on a finished game counts as leaving it (a keepalive request outlives the page).
  const finishedId = game.data?.status === 'finished' ? game.data.id : null;
  useEffect(() => {
    if (!finishedId || !token) return;
    const onHide = () => api.leaveOnPageHide(finishedId, token);
    window.addEventListener('pagehide', onHide);
    return () => window.removeEventListener('pagehide', onHide);
  }, [finishedId, token]);

  return {
    isLookingUp: !lookedUp,
    game: gameId ? (game.data ?? null) : null,
    realtime,
    isFinding: find.isPending,
    isMoving: move.isPending,
    isLeaving: leave.isPending,
    isRematching: rematch.isPending,
    isClaiming: claim.isPending,
    isInviting: invite.isPending,
    /** Why an invite link could not be opened (finished, full, …), shown on the entry card. */
    inviteError,
    inviteFriend: () => {
      setInviteError(null);
      invite.mutate();
    },
    findGame: () => {
      const held = game.data;
      // Moving on from a finished game leaves it first (the opponent stops being offered a rematch).
      if (held?.status === 'finished')
        api.leaveGame(held.id).then(
          () => find.mutate(),
          () => find.mutate(),
        );
      else find.mutate();
      setInviteError(null);
    },
    makeMove: (position: number) => gameId && move.mutate({ id: gameId, position }),
    leaveGame: () => game.data && leave.mutate(game.data),
    requestRematch: () => gameId && rematch.mutate(gameId),
    claimWin: () => gameId && claim.mutate(gameId),
  };
}

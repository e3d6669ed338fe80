import {
  expandStrokeIds,
  PICTIONARY_EVENTS,
  PICTIONARY_LOBBY_POLL_MS,
  PictionaryClearPush,
  type PictionaryDrawItem,
  type PictionaryGame,
  type PictionarySettingsBody,
  PictionaryStrokesPush,
  PictionaryUndoPush,
  pictionaryRoom,
  PICTIONARY_TEXTS as T,
} from '@guildhall/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ApiError } from '../../../api/client.ts';
import { useAuth } from '../../../auth/useAuth.ts';
import { acquireSocket, emitClientEvent, releaseSocket } from '../../../realtime/socket.ts';
import { useRealtimeEvent } from '../../../realtime/useRealtimeEvent.ts';
import { useRealtimeRoom } from '../../../realtime/useRealtimeRoom.ts';
import * as api from './api.ts';
import type { CanvasHandle } from './DrawingCanvas.tsx';
import { newerGame } from './game-view.ts';
import { createStrokeOutbox } from './stroke-outbox.ts';

const currentKey = ['pictionary', 'current'] as const;
/** A running game is polled this often only while the realtime channel is not live. */
const PICTIONARY_FALLBACK_POLL_MS = 5_000;
const gameKey = (id: string | null) => ['pictionary', 'game', id] as const;

const message = (e: unknown, fallback: string) => (e instanceof Error && e.message ? e.message : fallback);

/**
 * The Pictionary screen's state: the user's game looked up on open, kept fresh by per-player pushes (and,
 * as the spec says, by polling every 10 s in the lobby), the live canvas, and the player's actions.
 */
export function usePictionary() {
  const qc = useQueryClient();
  const { token, user } = useAuth();
  const [gameId, setGameId] = useState<string | null>(null);
  const [lookedUp, setLookedUp] = useState(false);
  /** Server clock minus this tab's clock, for the countdown. */
  const [clockOffset, setClockOffset] = useState(0);
  const canvas = useRef<CanvasHandle | null>(null);
  /** The turn's drawing as last received whole (a read or the room's snapshot), replayed on (re)mount. */
  const drawing = useRef<{ gameId: string; turn: number; segments: PictionaryDrawItem[] } | null>(null);

  const store = useCallback(
    (game: PictionaryGame) => {
      setClockOffset(Date.parse(game.serverTime) - Date.now());
      if (game.drawingData && game.status === 'in_progress') {
        const items = expandStrokeIds(game.drawingData);
        drawing.current = { gameId: game.id, turn: game.turnNumber, segments: items };
        canvas.current?.replace(game.turnNumber, items);
      }
      qc.setQueryData<PictionaryGame>(gameKey(game.id), (held) => newerGame(held, game));
    },
    [qc],
  );

  const current = useQuery({ queryKey: currentKey, queryFn: api.fetchCurrentGame, gcTime: 0, retry: 1 });
  // An invite link (`?join=<id>`): once the user's own game is known, join that lobby (or show it, if
  // it is theirs already), then drop the parameter so a reload does not join again.
  const [params, setParams] = useSearchParams();
  const inviteId = params.get('join');
  useEffect(() => {
    if (lookedUp || (!current.isSuccess && !current.isError)) return;
    setLookedUp(true);
    if (current.data) {
      store(current.data);
      setGameId(current.data.id);
    }
    if (inviteId && current.data?.id !== inviteId) {
      api.joinById(inviteId).then(
        (g) => {
          store(g);
          setGameId(g.id);
        },
        (e: unknown) => toast.error(message(e, T.joinFailed)),
      );
    }
    if (inviteId) setParams({}, { replace: true });
  }, [lookedUp, current.isSuccess, current.isError, current.data, store, inviteId, setParams]);

  const room = gameId ? pictionaryRoom(gameId) : null;
  const realtime = useRealtimeRoom(room, PICTIONARY_EVENTS.state, (push) => {
    if (push.game.id === gameId) store(push.game);
  });

  const game = useQuery({
    queryKey: gameKey(gameId),
    queryFn: async () => {
      const fresh = await api.fetchGame(gameId!);
      store(fresh);
      return newerGame(qc.getQueryData(gameKey(gameId)), fresh);
    },
    enabled: gameId !== null,
    // Polling in the lobby (portal-tools §4); the game itself is pushed, and polled only while the realtime
    // channel is down (so a browser without it still plays, and still counts as present).
    refetchInterval: (q) =>
      q.state.data?.status === 'lobby'
        ? PICTIONARY_LOBBY_POLL_MS
        : q.state.data?.status === 'in_progress' && realtime !== 'live'
          ? PICTIONARY_FALLBACK_POLL_MS
          : false,
    refetchIntervalInBackground: true,
  });

  useRealtimeEvent(PICTIONARY_EVENTS.strokes, room !== null, (payload) => {
    const push = PictionaryStrokesPush.safeParse(payload);
    if (!push.success || push.data.gameId !== gameId) return;
    const { strokeId } = push.data;
    const items = push.data.segments.map((s) => (strokeId === undefined ? s : { ...s, strokeId }));
    const held = drawing.current;
    if (held && held.gameId === gameId && held.turn === push.data.turnNumber) held.segments.push(...items);
    else drawing.current = { gameId: push.data.gameId, turn: push.data.turnNumber, segments: items };
    canvas.current?.draw(push.data.turnNumber, items);
  });
  // The drawer undid a stroke: it leaves the held drawing, and the canvas repaints without it.
  useRealtimeEvent(PICTIONARY_EVENTS.undo, room !== null, (payload) => {
    const push = PictionaryUndoPush.safeParse(payload);
    const held = drawing.current;
    if (!push.success || push.data.gameId !== gameId || held?.turn !== push.data.turnNumber) return;
    held.segments = held.segments.filter((s) => s.strokeId !== push.data.strokeId);
    canvas.current?.replace(push.data.turnNumber, held.segments);
  });
  useRealtimeEvent(PICTIONARY_EVENTS.clear, room !== null, (payload) => {
    const push = PictionaryClearPush.safeParse(payload);
    if (!push.success || push.data.gameId !== gameId) return;
    drawing.current = { gameId: push.data.gameId, turn: push.data.turnNumber, segments: [] };
    canvas.current?.replace(push.data.turnNumber, []);
  });

  // Play again: every screen of the group follows the finished game to its new lobby.
  const nextGameId = game.data?.status === 'finished' ? game.data.nextGameId : null;
  useEffect(() => {
    if (nextGameId && nextGameId !== gameId) {
      drawing.current = null;
      setGameId(nextGameId);
    }
  }, [nextGameId, gameId]);

  // Kicked (issue 29): the last view pushed no longer lists this player; back to the entry view.
  const kickedOut =
    game.data !== undefined &&
    gameId !== null &&
    game.data.id === gameId &&
    game.data.status !== 'finished' &&
    user !== null &&
    user !== undefined &&
    !game.data.players.some((p) => p.id === user.id);
  useEffect(() => {
    if (!kickedOut) return;
    toast.info(T.kicked);
    qc.setQueryData(currentKey, null);
    drawing.current = null;
    setGameId(null);
  }, [kickedOut, qc]);

  // Dropped from a lobby after being away (or the lobby closed): back to the entry view.
  useEffect(() => {
    const e = game.error;
    if (e instanceof ApiError && (e.status === 403 || e.status === 404)) {
      qc.setQueryData(currentKey, null);
      drawing.current = null;
      setGameId(null);
    }
  }, [game.error, qc]);

  const wordBanks = useQuery({
    queryKey: ['pictionary', 'word-banks'],
    queryFn: api.fetchWordBanks,
    staleTime: Infinity,
  });

  const show = (next: PictionaryGame) => {
    store(next);
    setGameId(next.id);
  };

  const find = useMutation({
    mutationFn: api.joinGame,
    onSuccess: show,
    onError: (e) => toast.error(message(e, T.joinFailed)),
  });

  const leave = useMutation({
    // A finished game too: the server notes it, so Play again does not bring this player back.
    mutationFn: async (g: PictionaryGame) => api.leaveGame(g.id),
    // Leaving clears the local game (portal-tools §4); errors are only logged (§8).
    onSettled: () => {
      qc.setQueryData(currentKey, null);
      drawing.current = null;
      setGameId(null);
    },
    onError: (e) => console.warn('Pictionary: leave failed', e),
  });

  const saveSettings = useMutation({
    mutationFn: (body: PictionarySettingsBody) => api.updateSettings(gameId!, body),
    onSuccess: (next) => {
      store(next);
      toast.success('Settings updated');
    },
    onError: (e) => toast.error(message(e, T.settingsFailed)),
  });

  const again = useMutation({
    mutationFn: () => api.playAgain(gameId!),
    onSuccess: show,
    onError: (e) => toast.error(message(e, T.joinFailed)),
  });

  const start = useMutation({
    // Settings the host changed but did not save are saved first (issue 29), then the game starts.
    mutationFn: async (pending?: PictionarySettingsBody) => {
      if (pending) store(await api.updateSettings(gameId!, pending));
      return api.startGame(gameId!);
    },
    onSuccess: store,
    onError: (e) => toast.error(message(e, T.startFailed)),
  });

  const guess = useMutation({
    mutationFn: (text: string) => api.submitGuess(gameId!, text),
    onSuccess: (r) => {
      store(r.game);
      if (!r.isCorrect && r.message !== T.wrong) toast.info(r.message);
    },
    onError: (e) => toast.error(message(e, T.guessFailed)),
  });

  // Issue 29: the drawer's word choice, the chat among players who guessed, kicks and votes to kick.
  const chooseWord = useMutation({
    mutationFn: (choice: number) => api.chooseWord(gameId!, choice),
    onSuccess: store,
    onError: (e) => toast.error(message(e, T.notChoosing)),
  });
  const chat = useMutation({
    mutationFn: (text: string) => api.sendChat(gameId!, text),
    onSuccess: store,
    onError: (e) => toast.error(message(e, T.guessedChatOnly)),
  });
  const kick = useMutation({
    mutationFn: (playerId: string) => api.kickPlayer(gameId!, playerId),
    onSuccess: store,
    onError: (e) => toast.error(message(e, T.voteKick)),
  });

  // Strokes go out in order, one behind the other: over the open socket, else by HTTP (the spec's call).
  const outbox = useMemo(
    () =>
      gameId && token
        ? createStrokeOutbox((strokeData) => sendOverSocketOrHttp(token, gameId, strokeData))
        : null,
    [gameId, token],
  );
  const sendStrokes = useCallback(
    (strokeData: Parameters<typeof api.sendStrokes>[1]) => outbox?.push(strokeData),
    [outbox],
  );

  return {
    isLookingUp: !lookedUp,
    game: gameId ? (game.data ?? null) : null,
    realtime,
    clockOffset,
    canvas,
    drawing,
    wordBanks: wordBanks.data ?? [],
    isFinding: find.isPending,
    isSaving: saveSettings.isPending,
    isStarting: start.isPending,
    isGuessing: guess.isPending,
    findGame: () => find.mutate(),
    leaveGame: () => game.data && leave.mutate(game.data),
    saveSettings: (body: PictionarySettingsBody) =>
      saveSettings.mutateAsync(body).then(
        (g) => g,
        () => null,
      ),
    startGame: (pending?: PictionarySettingsBody) => start.mutate(pending),
    isPlayingAgain: again.isPending,
    playAgain: () => again.mutate(),
    findNewGame: () => {
      const held = game.data;
      if (held) leave.mutate(held, { onSettled: () => find.mutate() });
      else find.mutate();
    },
    submitGuess: (text: string) =>
      guess.mutateAsync(text).then(
        () => true,
        () => false,
      ),
    sendStrokes,
    isChoosing: chooseWord.isPending,
    chooseWord: (choice: number) => chooseWord.mutate(choice),
    isChatting: chat.isPending,
    sendChat: (text: string) =>
      chat.mutateAsync(text).then(
        () => true,
        () => false,
      ),
    kickPlayer: (playerId: string) => kick.mutate(playerId),
    isKicking: kick.isPending,
  };
}

/** One batch over the tab's socket when it is connected (no HTTP request per batch), else POST /:id/draw. */
async function sendOverSocketOrHttp(
  token: string,
  gameId: string,
  strokeData: Parameters<typeof api.sendStrokes>[1],
): Promise<void> {
  const socket = acquireSocket(token);
  try {
    if (socket.connected) {
      const ack = await emitClientEvent(socket, PICTIONARY_EVENTS.draw, { gameId, strokeData });
      if (!ack.ok) throw new Error(ack.error);
      return;
    }
  } finally {
    releaseSocket(socket);
  }
  await api.sendStrokes(gameId, strokeData);
}

import { TicTacToeCurrentResponse, type TicTacToeGame, TicTacToeResponse } from '@guildhall/common';
import { apiFetch } from '../../../api/client.ts';

/** Tic-tac-toe calls (portal-tools §7); responses are parsed with the shared contract. */
const BASE = '/api/games/tic-tac-toe';

export async function fetchCurrentGame(): Promise<TicTacToeGame | null> {
  return TicTacToeCurrentResponse.parse(await apiFetch(`${BASE}/current`)).game;
}

export async function fetchGame(id: string): Promise<TicTacToeGame> {
  return TicTacToeResponse.parse(await apiFetch(`${BASE}/${encodeURIComponent(id)}`)).game;
}

export async function joinGame(): Promise<TicTacToeGame> {
  return TicTacToeResponse.parse(await apiFetch(`${BASE}/join`, { method: 'POST' })).game;
}

export async function makeMove(id: string, position: number): Promise<TicTacToeGame> {
  const res = await apiFetch(`${BASE}/${encodeURIComponent(id)}/move`, {
    method: 'POST',
    body: { position },
  });
  return TicTacToeResponse.parse(res).game;
}

export async function leaveGame(id: string): Promise<TicTacToeGame> {
  return TicTacToeResponse.parse(
    await apiFetch(`${BASE}/${encodeURIComponent(id)}/leave`, { method: 'POST' }),
  ).game;
}

/** Claims the win of a game the opponent left (409 with the wait while they are still there). */
export async function claimWin(id: string): Promise<TicTacToeGame> {
  const res = await apiFetch(`${BASE}/${encodeURIComponent(id)}/claim`, { method: 'POST' });
  return TicTacToeResponse.parse(res).game;
}

export async function requestRematch(id: string): Promise<TicTacToeGame> {
  const res = await apiFetch(`${BASE}/${encodeURIComponent(id)}/rematch`, { method: 'POST' });
  return TicTacToeResponse.parse(res).game;
}

/**
 * Leaves a finished game as the tab closes: `keepalive` lets the request outlive the page (sendBeacon
 * cannot carry the bearer token). Nothing waits for the answer.
 */
export function leaveOnPageHide(id: string, token: string): void {
  fetch(`${BASE}/${encodeURIComponent(id)}/leave`, {
    method: 'POST',
    keepalive: true,
    headers: { authorization: `Bearer ${token}` },
  }).catch(() => {
    // the page is going away; a lost request only leaves a rematch offer possible
  });
}

/** "Invite a friend": a private waiting game whose link seats the friend as O (beyond the spec). */
export async function createInvite(): Promise<TicTacToeGame> {
  return TicTacToeResponse.parse(await apiFetch(`${BASE}/invite`, { method: 'POST' })).game;
}

/** Opens an invite link: takes seat 2 of that game (beyond the spec). */
export async function joinByLink(id: string): Promise<TicTacToeGame> {
  return TicTacToeResponse.parse(await apiFetch(`${BASE}/${encodeURIComponent(id)}/join`, { method: 'POST' }))
    .game;
}

import {
  PictionaryCurrentResponse,
  type PictionaryDrawBody,
  PictionaryDrawResponse,
  type PictionaryGame,
  PictionaryGuessResponse,
  PictionaryLeaveResponse,
  PictionaryResponse,
  type PictionarySettingsBody,
  type PictionaryWordBank,
  PictionaryWordBanksResponse,
} from '@guildhall/common';
import { apiFetch } from '../../../api/client.ts';

/** Pictionary calls (portal-tools §7); responses are parsed with the shared contract. */
const BASE = '/api/games/pictionary';
const at = (id: string, what = '') => `${BASE}/${encodeURIComponent(id)}${what}`;

export async function fetchCurrentGame(): Promise<PictionaryGame | null> {
  return PictionaryCurrentResponse.parse(await apiFetch(`${BASE}/current`)).game;
}

export async function fetchGame(id: string): Promise<PictionaryGame> {
  return PictionaryResponse.parse(await apiFetch(at(id))).game;
}

export async function fetchWordBanks(): Promise<PictionaryWordBank[]> {
  return PictionaryWordBanksResponse.parse(await apiFetch(`${BASE}/word-banks`)).wordBanks;
}

export async function joinGame(): Promise<PictionaryGame> {
  return PictionaryResponse.parse(await apiFetch(`${BASE}/join`, { method: 'POST' })).game;
}

export async function leaveGame(id: string): Promise<PictionaryGame | null> {
  return PictionaryLeaveResponse.parse(await apiFetch(at(id, '/leave'), { method: 'POST' })).game;
}

export async function updateSettings(id: string, body: PictionarySettingsBody): Promise<PictionaryGame> {
  return PictionaryResponse.parse(await apiFetch(at(id, '/settings'), { method: 'POST', body })).game;
}

export async function startGame(id: string): Promise<PictionaryGame> {
  return PictionaryResponse.parse(await apiFetch(at(id, '/start'), { method: 'POST' })).game;
}

export async function sendStrokes(id: string, strokeData: PictionaryDrawBody['strokeData']): Promise<void> {
  PictionaryDrawResponse.parse(await apiFetch(at(id, '/draw'), { method: 'POST', body: { strokeData } }));
}

export async function submitGuess(id: string, guess: string) {
  return PictionaryGuessResponse.parse(await apiFetch(at(id, '/guess'), { method: 'POST', body: { guess } }));
}

/** Joins the lobby of an invite link (beyond the spec). */
export async function joinById(id: string): Promise<PictionaryGame> {
  return PictionaryResponse.parse(await apiFetch(at(id, '/join'), { method: 'POST' })).game;
}

/** Play again after Game Complete: the new lobby of the same group (beyond the spec). */
export async function playAgain(id: string): Promise<PictionaryGame> {
  return PictionaryResponse.parse(await apiFetch(at(id, '/play-again'), { method: 'POST' })).game;
}

/** The drawer's pick of the offered words, by its place (issue 29). */
export async function chooseWord(id: string, choice: number): Promise<PictionaryGame> {
  return PictionaryResponse.parse(await apiFetch(at(id, '/choose'), { method: 'POST', body: { choice } }))
    .game;
}

/** A message to the drawer and the players who guessed (issue 29). */
export async function sendChat(id: string, text: string): Promise<PictionaryGame> {
  return PictionaryResponse.parse(await apiFetch(at(id, '/chat'), { method: 'POST', body: { text } })).game;
}

/** The host's kick in the lobby, a vote to kick in a running game (issue 29). */
export async function kickPlayer(id: string, playerId: string): Promise<PictionaryGame> {
  return PictionaryResponse.parse(await apiFetch(at(id, '/kick'), { method: 'POST', body: { playerId } }))
    .game;
}

import type { TicTacToeGame } from '@guildhall/common';
import type { Db } from '../../../db/index.ts';
import type { App } from '../../../platform/feature.ts';
import { bearer } from '../../../test/app.ts';

export const BASE = '/api/games/tic-tac-toe';

export type Reply = {
  status: number;
  body: { success: boolean; game?: TicTacToeGame; message?: string; error?: string; code?: string };
};

/** Calls a tic-tac-toe route as a signed-in user. */
export async function call(app: App, token: string, method: 'GET' | 'POST', path: string, payload?: unknown) {
  const res = await app.inject({
    method,
    url: `${BASE}${path}`,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: res.statusCode, body: res.json() } as Reply;
}

export const join = (app: App, token: string) => call(app, token, 'POST', '/join');
export const move = (app: App, token: string, id: string, position: unknown) =>
  call(app, token, 'POST', `/${id}/move`, { position });
export const leave = (app: App, token: string, id: string) => call(app, token, 'POST', `/${id}/leave`);
export const claim = (app: App, token: string, id: string) => call(app, token, 'POST', `/${id}/claim`);

/**
 * Makes a player look as if last seen `ms` before `now` (a closed tab), instead of waiting that long. `now`:
 * the app's clock when the test runs it on a manual one (then the wait a message names is exact).
 */
export async function lastSeen(db: Db, userId: string, ms: number, now = Date.now()): Promise<void> {
  const at = new Date(now - ms).toISOString();
  await db.updateTable('tictactoe_seats').set({ seen_at: at }).where('user_id', '=', userId).execute();
}

/** Plays positions alternately, X first; every move must succeed. Returns the last state. */
export async function play(
  app: App,
  x: string,
  o: string,
  id: string,
  positions: number[],
): Promise<TicTacToeGame> {
  let game: TicTacToeGame | undefined;
  for (const [i, p] of positions.entries()) {
    const r = await move(app, i % 2 === 0 ? x : o, id, p);
    if (r.status !== 200) throw new Error(`move ${p} failed: ${r.status} ${JSON.stringify(r.body)}`);
    game = r.body.game;
  }
  return game!;
}

/** X wins along the top row. */
export const X_WINS = [0, 3, 1, 4, 2];
/** A full board without a line: X O X / X O O / O X X. */
export const DRAW = [0, 1, 2, 4, 3, 5, 7, 6, 8];

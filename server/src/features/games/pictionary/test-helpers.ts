import type { PictionaryGame, PictionarySegment } from '@guildhall/common';
import type { Db } from '../../../db/index.ts';
import type { App } from '../../../platform/feature.ts';
import { bearer, type TestContext } from '../../../test/app.ts';
import { advanceIfDue, type PictionaryContext } from './service.ts';
import { type Clock, createTurnTimers } from './timers.ts';

export const BASE = '/api/games/pictionary';

export type Reply = {
  status: number;
  body: {
    success: boolean;
    game?: PictionaryGame | null;
    message?: string;
    error?: string;
    code?: string;
    isCorrect?: boolean;
    wordBanks?: { id: string; name: string; count: number }[];
  };
  raw: string;
};

/** Calls a Pictionary route as a signed-in user. */
export async function call(app: App, token: string, method: 'GET' | 'POST', path: string, payload?: unknown) {
  const res = await app.inject({
    method,
    url: `${BASE}${path}`,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: res.statusCode, body: res.json(), raw: res.body } as Reply;
}

export const join = (app: App, token: string) => call(app, token, 'POST', '/join');
export const get = (app: App, token: string, id: string) => call(app, token, 'GET', `/${id}`);
export const leave = (app: App, token: string, id: string) => call(app, token, 'POST', `/${id}/leave`);
/** Starts the game as the spec's start (no word choice yet): the drawer is choosing. */
export const startOnly = (app: App, token: string, id: string) => call(app, token, 'POST', `/${id}/start`);
export const choose = (app: App, token: string, id: string, choice: unknown) =>
  call(app, token, 'POST', `/${id}/choose`, { choice });
/**
 * Starts the game and, when it started, has its first drawer (the host, who started it) pick the first
 * offered word, so the turn is drawing: what most tests want. Answers with the start's failure, or the choice.
 */
export async function start(app: App, token: string, id: string): Promise<Reply> {
  const r = await startOnly(app, token, id);
  if (r.status !== 200 || r.body.game?.currentDrawer?.id !== r.body.game?.hostId) return r;
  return choose(app, token, id, 0);
}
export const guessAs = (app: App, token: string, id: string, guess: unknown) =>
  call(app, token, 'POST', `/${id}/guess`, { guess });
export const settings = (app: App, token: string, id: string, body: unknown) =>
  call(app, token, 'POST', `/${id}/settings`, body);
export const drawAs = (app: App, token: string, id: string, strokeData: unknown) =>
  call(app, token, 'POST', `/${id}/draw`, { strokeData });

export const segment = (over: Partial<PictionarySegment> = {}): PictionarySegment => ({
  type: 'line',
  from: { x: 10, y: 10 },
  to: { x: 20, y: 30 },
  color: '#ff0000',
  size: 5,
  timestamp: 1,
  ...over,
});
export const batch = (segments: PictionarySegment[] = [segment()]) => ({
  type: 'stroke_batch',
  segments,
  timestamp: Date.now(),
});

export type Player = { token: string; userId: string; name: string };

/** `n` signed-in players in one lobby (the first hosts), in join order. */
export async function lobbyOf(ctx: TestContext, n: number): Promise<{ id: string; players: Player[] }> {
  const players: Player[] = [];
  let id = '';
  for (let i = 0; i < n; i++) {
    const name = `player${i + 1}_${Math.random().toString(36).slice(2, 6)}`;
    const u = await ctx.signIn({ username: name });
    const r = await join(ctx.app, u.token);
    if (r.status !== 200) throw new Error(`join failed: ${r.raw}`);
    id = r.body.game!.id;
    players.push({ ...u, name });
  }
  return { id, players };
}

/** The secret word of a game (what only the drawer's view carries). */
export async function wordOf(db: Db, id: string): Promise<string> {
  const row = await db
    .selectFrom('pictionary_games')
    .select('current_word')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.current_word!;
}

export { manualClock } from '../../../test/manual-clock.ts';

/** A service context on a test database with a hand-driven clock; pushes are recorded. */
export function serviceContext(db: Db, clock: Clock, random: () => number = Math.random) {
  const pushes: { userId: string; game: PictionaryGame }[] = [];
  const ctx: PictionaryContext = {
    db,
    clock,
    random,
    timers: createTurnTimers(clock, (id) => advanceIfDue(ctx, id)),
    pushState: (userId, game) => pushes.push({ userId, game }),
    pushStrokes: () => {},
    pushClear: () => {},
    pushUndo: () => {},
    segmentCounts: new Map(),
    startedAt: clock.now(),
  };
  return { ctx, pushes };
}

/**
 * Whether `word` shows in any string value of `json` as a whole word: how a leaked word would show.
 * Keys are skipped (a word such as "game" is also a field name), and so are ids, timestamps and bank
 * names, whose letters are not the secret (a UUID segment may spell "face").
 */
export function leaksWord(json: unknown, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const whole = new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'iu');
  const skipped = (key: string) => /^id$|Id$|At$|Time$|^wordBanks$/.test(key);
  const visit = (value: unknown): boolean => {
    if (typeof value === 'string') return whole.test(value);
    if (Array.isArray(value)) return value.some(visit);
    if (value && typeof value === 'object')
      return Object.entries(value).some(([key, v]) => !skipped(key) && visit(v));
    return false;
  };
  return visit(json);
}

import {
  ApiError,
  PICTIONARY_EVENTS,
  PICTIONARY_ROOM_TYPE,
  PictionaryCurrentResponse,
  PictionaryDrawBody,
  PictionaryDrawResponse,
  PictionaryGameParams,
  PictionaryGuessBody,
  PictionaryGuessResponse,
  PictionaryLeaveResponse,
  PictionaryResponse,
  PictionarySettingsBody,
  PictionarySocketDraw,
  PictionaryWordBanksResponse,
  pictionaryRoom as roomName,
  TEXTS,
  userRoom,
} from '@guildhall/common';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../../app.ts';
import { httpError } from '../../../platform/errors.ts';
import { createRateWindow } from './rate-window.ts';
import { pictionaryRoom } from './room.ts';
import {
  advanceDueGames,
  advanceIfDue,
  armTimers,
  currentGame,
  draw,
  getGame,
  guess,
  joinGame,
  leaveGame,
  type PictionaryContext,
  startGame,
  updateSettings,
} from './service.ts';
import { type Clock, createTurnTimers, realClock } from './timers.ts';
import { listWordBanks } from './word-banks.ts';

const BASE = '/api/games/pictionary';

/** Due turns whose timer ran on another (or a stopped) instance are picked up this often. */
const SWEEP_EVERY_MS = 5_000;
/** Socket draws per user and second (the screen sends about 20). */
const SOCKET_DRAWS_PER_SECOND = 40;

/** Limits count per user. The drawer sends a batch every ≈50 ms (1200 a minute) plus the odd clear. */
const userKey = (req: FastifyRequest) => (req.auth ? `user:${req.auth.user.discord_id}` : `ip:${req.ip}`);
const ACCESS = {
  access: 'login',
  rateLimit: { max: 300, timeWindow: '1 minute', keyGenerator: userKey },
} as const;
const DRAW_ACCESS = {
  access: 'login',
  rateLimit: { max: 2400, timeWindow: '1 minute', keyGenerator: userKey },
} as const;

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 429: ApiError };

export type PictionaryOptions = { clock?: Clock; random?: () => number };

export function pictionaryRoutes(deps: AppDeps, options: PictionaryOptions = {}): FastifyPluginAsyncZod {
  return async (app) => {
    const clock = options.clock ?? realClock;
    const hub = app.realtime;
    const ctx: PictionaryContext = {
      db: deps.db,
      clock,
      random: options.random ?? Math.random,
      timers: createTurnTimers(clock, (id) => {
        advanceIfDue(ctx, id).catch((err: unknown) =>
          app.log.error({ err, gameId: id }, 'pictionary: advancing a turn failed'),
        );
      }),
      pushState: (userId, game) => hub.publish(userRoom(userId), PICTIONARY_EVENTS.state, { game }),
      pushStrokes: (gameId, drawerId, turnNumber, segments) =>
        hub.io
          .to(roomName(gameId))
          .except(userRoom(drawerId))
          .emit(PICTIONARY_EVENTS.strokes, { gameId, turnNumber, segments }),
      pushClear: (gameId, turnNumber) =>
        hub.publish(roomName(gameId), PICTIONARY_EVENTS.clear, { gameId, turnNumber }),
      segmentCounts: new Map(),
    };
    // The live path for strokes: the drawer's open socket, with the same rules as POST /:id/draw.
    const socketDrawLimit = createRateWindow(SOCKET_DRAWS_PER_SECOND, 1000);
    hub.onClientEvent(PICTIONARY_EVENTS.draw, async (identity, payload) => {
      const parsed = PictionarySocketDraw.safeParse(payload);
      if (!parsed.success) {
        throw httpError(400, parsed.error.issues[0]?.message ?? 'Invalid stroke data', 'BAD_REQUEST');
      }
      if (!socketDrawLimit.allow(identity.userId))
        throw httpError(429, TEXTS.rateLimitGeneric, 'RATE_LIMITED');
      return draw(ctx, identity.userId, parsed.data.gameId, parsed.data.strokeData);
    });
    hub.defineRoomType(PICTIONARY_ROOM_TYPE, pictionaryRoom(deps.db, clock));

    // Turns advance with nobody connected: a timer per game here, and a sweep for due turns anyone left.
    let sweep: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      await advanceDueGames(ctx);
      await armTimers(ctx);
      sweep = setInterval(() => {
        advanceDueGames(ctx).catch((err: unknown) => app.log.error({ err }, 'pictionary: sweep failed'));
      }, SWEEP_EVERY_MS);
      sweep.unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(sweep);
      ctx.timers.cancelAll();
    });

    const me = (req: FastifyRequest) => req.auth!.user.discord_id;
    const params = PictionaryGameParams;

    app.post(
      `${BASE}/join`,
      { config: ACCESS, schema: { response: { 200: PictionaryResponse, ...errors } } },
      async (req) => ok(await joinGame(ctx, me(req))),
    );

    app.get(
      `${BASE}/current`,
      { config: ACCESS, schema: { response: { 200: PictionaryCurrentResponse, ...errors } } },
      async (req) => ok(await currentGame(ctx, me(req))),
    );

    app.get(
      `${BASE}/word-banks`,
      { config: ACCESS, schema: { response: { 200: PictionaryWordBanksResponse, ...errors } } },
      async () => ({
        success: true as const,
        wordBanks: listWordBanks(),
      }),
    );

    app.get(
      `${BASE}/:id`,
      { config: ACCESS, schema: { params, response: { 200: PictionaryResponse, ...errors } } },
      async (req) => ok(await getGame(ctx, me(req), req.params.id)),
    );

    app.post(
      `${BASE}/:id/leave`,
      { config: ACCESS, schema: { params, response: { 200: PictionaryLeaveResponse, ...errors } } },
      async (req) => ok(await leaveGame(ctx, me(req), req.params.id)),
    );

    app.post(
      `${BASE}/:id/settings`,
      {
        config: ACCESS,
        schema: { params, body: PictionarySettingsBody, response: { 200: PictionaryResponse, ...errors } },
      },
      async (req) => ok(await updateSettings(ctx, me(req), req.params.id, req.body)),
    );

    app.post(
      `${BASE}/:id/start`,
      { config: ACCESS, schema: { params, response: { 200: PictionaryResponse, ...errors } } },
      async (req) => ok(await startGame(ctx, me(req), req.params.id)),
    );

    app.post(
      `${BASE}/:id/draw`,
      {
        config: DRAW_ACCESS,
        schema: {
          params,
          body: PictionaryDrawBody,
          response: { 200: PictionaryDrawResponse, 413: ApiError, ...errors },
        },
      },
      async (req) => ok(await draw(ctx, me(req), req.params.id, req.body.strokeData)),
    );

    app.post(
      `${BASE}/:id/guess`,
      {
        config: ACCESS,
        schema: { params, body: PictionaryGuessBody, response: { 200: PictionaryGuessResponse, ...errors } },
      },
      async (req) => ok(await guess(ctx, me(req), req.params.id, req.body.guess)),
    );
  };
}

/** The spec's envelope {success, game, message}. */
function ok<T extends { message: string }>(result: T): T & { success: true } {
  return { success: true, ...result };
}

import {
  ApiError,
  PICTIONARY_EVENTS,
  PICTIONARY_PRESENCE_TICK_MS,
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
import { dropAbsent, noteOneSeen, noteSeen } from './presence.ts';
import { createRateWindow } from './rate-window.ts';
import { pictionaryRoom, socketsInGameRooms } from './room.ts';
import { joinById, playAgain } from './rooms.ts';
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
      startedAt: clock.now(),
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
    hub.defineRoomType(
      PICTIONARY_ROOM_TYPE,
      pictionaryRoom(ctx, (gameId, userId) => seen(gameId, userId)),
    );
    const seen = (gameId: string, userId: string) =>
      noteOneSeen(ctx, gameId, userId).catch((err: unknown) =>
        app.log.error({ err, gameId }, 'pictionary: noting a player as seen failed'),
      );

    // Turns advance with nobody connected: a timer per game here, and a sweep for due turns anyone left.
    // The same beat notes who has a socket in a game's room here, and acts on players gone too long.
    let sweep: NodeJS.Timeout | undefined;
    let presence: NodeJS.Timeout | undefined;
    let ticking = false;
    app.addHook('onReady', async () => {
      await advanceDueGames(ctx);
      await armTimers(ctx);
      sweep = setInterval(() => {
        advanceDueGames(ctx).catch((err: unknown) => app.log.error({ err }, 'pictionary: sweep failed'));
      }, SWEEP_EVERY_MS);
      sweep.unref();
      presence = setInterval(() => {
        if (ticking) return; // a slow database: never two ticks at once
        ticking = true;
        noteSeen(ctx, socketsInGameRooms(hub))
          .then(() => dropAbsent(ctx))
          .catch((err: unknown) => app.log.error({ err }, 'pictionary: presence check failed'))
          .finally(() => {
            ticking = false;
          });
      }, PICTIONARY_PRESENCE_TICK_MS);
      presence.unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(sweep);
      clearInterval(presence);
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
      async (req) => {
        const r = await currentGame(ctx, me(req));
        if (r.game) await seen(r.game.id, me(req));
        return ok(r);
      },
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
      async (req) => {
        const r = await getGame(ctx, me(req), req.params.id);
        await seen(req.params.id, me(req));
        return ok(r);
      },
    );

    app.post(
      `${BASE}/:id/leave`,
      { config: ACCESS, schema: { params, response: { 200: PictionaryLeaveResponse, ...errors } } },
      async (req) => ok(await leaveGame(ctx, me(req), req.params.id)),
    );

    // Beyond the spec (issue 29): join a lobby by its invite link; Play again after Game Complete.
    app.post(
      `${BASE}/:id/join`,
      { config: ACCESS, schema: { params, response: { 200: PictionaryResponse, ...errors } } },
      async (req) => ok(await joinById(ctx, me(req), req.params.id)),
    );

    app.post(
      `${BASE}/:id/play-again`,
      { config: ACCESS, schema: { params, response: { 200: PictionaryResponse, ...errors } } },
      async (req) => ok(await playAgain(ctx, me(req), req.params.id)),
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
      async (req) => {
        await seen(req.params.id, me(req));
        return ok(await guess(ctx, me(req), req.params.id, req.body.guess));
      },
    );
  };
}

/** The spec's envelope {success, game, message}. */
function ok<T extends { message: string }>(result: T): T & { success: true } {
  return { success: true, ...result };
}

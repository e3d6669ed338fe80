import {
  ApiError,
  PICTIONARY_CHAT_PER_MINUTE,
  PictionaryChatBody,
  PictionaryChooseBody,
  PictionaryCurrentResponse,
  PictionaryDrawBody,
  PictionaryDrawResponse,
  PictionaryGameParams,
  PictionaryGuessBody,
  PictionaryGuessResponse,
  PictionaryKickBody,
  PictionaryLeaveResponse,
  PictionaryResponse,
  PictionarySettingsBody,
  PictionaryWordBanksResponse,
} from '@guildhall/common';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { perMemberKey } from '../../../platform/rate-limit/keys.ts';
import { sendChat } from './chat.ts';
import { kickPlayer } from './kick.ts';
import { noteOneSeen } from './presence.ts';
import { joinById, playAgain } from './rooms.ts';
import {
  chooseWord,
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
import { listWordBanks } from './word-banks.ts';

const BASE = '/api/games/pictionary';

/** Limits count per user. The drawer sends a batch every ≈50 ms (1200 a minute) plus the odd clear. */
const ACCESS = {
  access: 'login',
  rateLimit: { max: 300, timeWindow: '1 minute', keyGenerator: perMemberKey },
} as const;
const DRAW_ACCESS = {
  access: 'login',
  rateLimit: { max: 2400, timeWindow: '1 minute', keyGenerator: perMemberKey },
} as const;

/** The chat among players who guessed: its own, tighter budget per member (issue 29). */
const CHAT_ACCESS = {
  access: 'login',
  rateLimit: { max: PICTIONARY_CHAT_PER_MINUTE, timeWindow: '1 minute', keyGenerator: perMemberKey },
} as const;

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 429: ApiError };

/** The Pictionary API; the services behind it (timers, the socket draw handler, the sweep) are built in index.ts. */
export function pictionaryRoutes(ctx: PictionaryContext): FastifyPluginAsyncZod {
  return async (app) => {
    // Reads, guesses and polls note the player as present as well as the socket beat (index.ts).
    const seen = (gameId: string, userId: string) =>
      noteOneSeen(ctx, gameId, userId).catch((err: unknown) =>
        app.log.error({ err, gameId }, 'pictionary: noting a player as seen failed'),
      );
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

    // Beyond the spec (issue 29): the drawer's word choice, the chat among players who guessed, vote-kick.
    app.post(
      `${BASE}/:id/choose`,
      {
        config: ACCESS,
        schema: { params, body: PictionaryChooseBody, response: { 200: PictionaryResponse, ...errors } },
      },
      async (req) => ok(await chooseWord(ctx, me(req), req.params.id, req.body.choice)),
    );

    app.post(
      `${BASE}/:id/chat`,
      {
        config: CHAT_ACCESS,
        schema: { params, body: PictionaryChatBody, response: { 200: PictionaryResponse, ...errors } },
      },
      async (req) => ok(await sendChat(ctx, me(req), req.params.id, req.body.text)),
    );

    app.post(
      `${BASE}/:id/kick`,
      {
        config: ACCESS,
        schema: { params, body: PictionaryKickBody, response: { 200: PictionaryResponse, ...errors } },
      },
      async (req) => ok(await kickPlayer(ctx, me(req), req.params.id, req.body.playerId)),
    );
  };
}

/** The spec's envelope {success, game, message}. */
function ok<T extends { message: string }>(result: T): T & { success: true } {
  return { success: true, ...result };
}

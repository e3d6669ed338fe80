import {
  TicTacToeCurrentResponse,
  TicTacToeGameParams,
  TicTacToeMoveBody,
  TicTacToeResponse,
} from '@guildhall/common';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { perMemberKey } from '../../../platform/rate-limit/keys.ts';
import { createInvite, joinByLink } from './invites.ts';
import {
  claimWin,
  currentGame,
  type GameContext,
  getGame,
  joinGame,
  leaveGame,
  makeMove,
  requestRematch,
} from './service.ts';

const BASE = '/api/games/tic-tac-toe';

/**
 * Minigames need a signed-in, approved user at any level (portal-tools §2). Limits count per user, not
 * per address, so players behind one NAT do not starve each other.
 */
const ACCESS = {
  access: 'login',
  rateLimit: { max: 300, timeWindow: '1 minute', keyGenerator: perMemberKey },
} as const;

/** The routes of the game service built once in the feature's setup (index.ts): they declare and call. */
export function ticTacToeRoutes(ctx: GameContext): FastifyPluginAsyncZod {
  return async (app) => {
    const me = (req: FastifyRequest) => req.auth!.user.discord_id;
    const params = TicTacToeGameParams;
    const response = { 200: TicTacToeResponse };

    app.post(`${BASE}/join`, { config: ACCESS, schema: { response } }, async (req) =>
      ok(await joinGame(ctx, me(req))),
    );

    app.get(
      `${BASE}/current`,
      { config: ACCESS, schema: { response: { 200: TicTacToeCurrentResponse } } },
      async (req) => ok(await currentGame(ctx, me(req))),
    );

    app.get(`${BASE}/:id`, { config: ACCESS, schema: { params, response } }, async (req) =>
      ok(await getGame(ctx, me(req), req.params.id)),
    );

    app.post(
      `${BASE}/:id/move`,
      { config: ACCESS, schema: { params, body: TicTacToeMoveBody, response } },
      async (req) => ok(await makeMove(ctx, me(req), req.params.id, req.body.position)),
    );

    app.post(`${BASE}/:id/leave`, { config: ACCESS, schema: { params, response } }, async (req) =>
      ok(await leaveGame(ctx, me(req), req.params.id)),
    );

    // Beyond the spec: the player who stayed wins a game the opponent left (docs/minigames.md).
    app.post(`${BASE}/:id/claim`, { config: ACCESS, schema: { params, response } }, async (req) =>
      ok(await claimWin(ctx, me(req), req.params.id)),
    );

    // Beyond the spec (issue 29): invite a friend by link. The game id (a random UUID) is the capability.
    app.post(`${BASE}/invite`, { config: ACCESS, schema: { response } }, async (req) =>
      ok(await createInvite(ctx, me(req))),
    );

    app.post(`${BASE}/:id/join`, { config: ACCESS, schema: { params, response } }, async (req) =>
      ok(await joinByLink(ctx, me(req), req.params.id)),
    );

    app.post(`${BASE}/:id/rematch`, { config: ACCESS, schema: { params, response } }, async (req) =>
      ok(await requestRematch(ctx, me(req), req.params.id)),
    );
  };
}

/** The spec's envelope {success, game, message}. */
function ok<T extends { message: string }>(result: T): T & { success: true } {
  return { success: true, ...result };
}

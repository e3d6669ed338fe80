import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.ts';
import { adminRoutes } from './admin/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { filesRoutes } from './files/routes.ts';
import { ticTacToeRoutes } from './games/tictactoe/routes.ts';
import { musicFeature } from './music/index.ts';
import { usersRoutes } from './users/routes.ts';

/** Every feature's routes, one line each. */
export async function registerFeatures(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await app.register(authRoutes(deps));
  await app.register(usersRoutes(deps));
  await app.register(ticTacToeRoutes(deps));
  await app.register(adminRoutes(deps));
  await app.register(filesRoutes(deps));
  await app.register(musicFeature(deps));
}

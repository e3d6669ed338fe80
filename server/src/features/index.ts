import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.ts';
import { adminRoutes } from './admin/index.ts';
import { authRoutes } from './auth/index.ts';
import { filesRoutes } from './files/index.ts';
import { pictionaryRoutes } from './games/pictionary/index.ts';
import { ticTacToeRoutes } from './games/tictactoe/index.ts';
import { musicFeature } from './music/index.ts';
import { osintRoutes } from './osint/index.ts';
import { usersRoutes } from './users/index.ts';

/** Every feature's routes, one line each (each imported from the feature's index.ts). */
export async function registerFeatures(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await app.register(authRoutes(deps));
  await app.register(usersRoutes(deps));
  await app.register(ticTacToeRoutes(deps));
  await app.register(adminRoutes(deps));
  await app.register(filesRoutes(deps));
  await app.register(pictionaryRoutes(deps));
  await app.register(osintRoutes(deps));
  await app.register(musicFeature(deps));
}

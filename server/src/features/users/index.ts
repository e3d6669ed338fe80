/** The users feature: what other features and the app may use (nothing else of this folder). */
import { defineFeature } from '../../platform/feature.ts';
import { usersRoutes } from './routes.ts';

export { bootstrapUsers } from './bootstrap.ts';
export { presentUser } from './present.ts';
export {
  clearServerFaces,
  countRealAdmins,
  type DiscordProfile,
  deleteUser,
  findUserById,
  findUserByUsername,
  insertUser,
  listAllUsers,
  touchLastLogin,
  type UserChanges,
  updateUser,
  upsertDiscordProfile,
} from './repo.ts';
export { effectiveLevel, isSetupMode } from './service.ts';
export type { UsersTable, UsersTables } from './tables.ts';

export const usersFeature = defineFeature({ name: 'users', routes: (ctx) => usersRoutes(ctx) });

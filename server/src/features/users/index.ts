/** The users feature: what other features and the app may use (nothing else of this folder). */
export { bootstrapUsers } from './bootstrap.ts';
export { presentUser } from './present.ts';
export {
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
export { usersRoutes } from './routes.ts';
export { effectiveLevel, isSetupMode } from './service.ts';
export type { UsersTable, UsersTables } from './tables.ts';

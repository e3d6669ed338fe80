/** The auth feature: sign-in (Discord OAuth, access code) and sign-out. */
export { type AccessCodeOrigin, type AccessCodeSource, resolveAccessCode } from './access-code-store.ts';
export { authRoutes } from './routes.ts';
export type { AuthTables } from './tables.ts';

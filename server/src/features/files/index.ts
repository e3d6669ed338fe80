/** The shared file system with its share links (portal-tools §7). */
export { filesRoutes } from './routes.ts';
export type { FilesTables } from './tables.ts';

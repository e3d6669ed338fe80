/** The shared file system with its share links (portal-tools §7), and what the music library reads of it. */
export { parseRange } from './http-download.ts';
export { findLibraryFile, type LibraryFile, openLibraryFile, searchLibraryFiles } from './library.ts';
export { collectGarbage } from './maintenance.ts';
export { filesRoutes } from './routes.ts';
export { migrateStorage, verifyStorage } from './storage-migration.ts';
export type { FilesTables } from './tables.ts';

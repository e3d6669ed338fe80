/** What other features may use of the files feature. */
export { parseRange } from './http-download.ts';
export { findLibraryFile, type LibraryFile, openLibraryFile, searchLibraryFiles } from './library.ts';
export { filesRoutes } from './routes.ts';

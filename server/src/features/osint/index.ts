/** The OSINT lookup: what the app registers. */
export { osintRoutes } from './routes.ts';

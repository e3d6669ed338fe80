/** The OSINT lookup: what the app registers. */
export { osintRoutes } from './routes.ts';
export { TOP_SITE_NAMES } from './sites.ts';

/** The OSINT lookup: what the app registers. */
import { defineFeature } from '../../platform/feature.ts';
import { osintRoutes } from './routes.ts';

export { runSelfCheck } from './self-check.ts';
export { TOP_SITE_NAMES } from './sites.ts';

export const osintFeature = defineFeature({ name: 'osint', routes: (ctx) => osintRoutes(ctx) });

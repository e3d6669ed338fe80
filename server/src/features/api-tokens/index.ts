/** Personal API tokens (issue 45): members manage them here; platform/access.ts accepts them on routes that declare a tokenScope. */
import { defineFeature } from '../../platform/feature.ts';
import { apiTokenRoutes } from './routes.ts';

export const apiTokensFeature = defineFeature({ name: 'api-tokens', routes: (ctx) => apiTokenRoutes(ctx) });

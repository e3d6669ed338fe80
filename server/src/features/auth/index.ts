/** The auth feature: sign-in (Discord OAuth, access code) and sign-out. */
import { defineFeature } from '../../platform/feature.ts';
import type { AuthFeatureConfig } from './feature-config.ts';
import { authRoutes } from './routes.ts';

export { type AccessCodeOrigin, type AccessCodeSource, resolveAccessCode } from './access-code-store.ts';
export type { AuthTables } from './tables.ts';

export const authFeature = defineFeature<undefined, AuthFeatureConfig>({
  name: 'auth',
  // Its whole slice, so a new sign-in variable reaches it with no edit here; the access code is settled at
  // start-up (main.ts) and reaches the routes through the context, not the config.
  config: ({ auth: { accessCode: _settledAtStart, ...auth }, roles }) => ({ ...auth, roles }),
  routes: (ctx) => authRoutes(ctx),
});

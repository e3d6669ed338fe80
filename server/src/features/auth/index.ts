/** The auth feature: sign-in (Discord OAuth, access code) and sign-out. */
import { defineFeature } from '../../platform/feature.ts';
import type { AuthFeatureConfig } from './feature-config.ts';
import { authRoutes } from './routes.ts';

export { type AccessCodeOrigin, type AccessCodeSource, resolveAccessCode } from './access-code-store.ts';
export type { AuthTables } from './tables.ts';

export const authFeature = defineFeature<undefined, AuthFeatureConfig>({
  name: 'auth',
  config: (c) => ({ discord: c.auth.discord, roles: c.roles }),
  routes: (ctx) => authRoutes(ctx),
});

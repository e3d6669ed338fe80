import type { RolesConfig } from '../roles/index.ts';
import type { AuthConfig } from './config.ts';

/**
 * The auth feature's slice: Discord sign-in, and role sync's settings (issue 43), since a Discord
 * sign-in asks the community server whether the account is a member and what its roles give. Kept
 * apart from config.ts, which the configuration module loads without any feature's code.
 */
export type AuthFeatureConfig = AuthConfig & { roles?: RolesConfig };

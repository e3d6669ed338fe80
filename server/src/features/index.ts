import type { Feature } from '../platform/feature.ts';
import { adminFeature } from './admin/index.ts';
import { apiTokensFeature } from './api-tokens/index.ts';
import { authFeature } from './auth/index.ts';
import { discordNotesFeature } from './discord-notes/index.ts';
import { filesFeature } from './files/index.ts';
import { type PictionaryOptions, pictionaryFeature } from './games/pictionary/index.ts';
import { ticTacToeFeature } from './games/tictactoe/index.ts';
import { type MusicOptions, musicFeature } from './music/index.ts';
import { noticesFeature } from './notices/index.ts';
import { osintFeature } from './osint/index.ts';
import { type RolesOptions, rolesFeature } from './roles/index.ts';
import { usersFeature } from './users/index.ts';

/** Test seams of the features that have them. */
export type FeatureOptions = { pictionary?: PictionaryOptions; roles?: RolesOptions; music?: MusicOptions };

/**
 * Every feature, one line each (each imported from the feature's index.ts), in the order they are
 * registered and started; they stop in reverse order.
 */
export function allFeatures(options: FeatureOptions = {}): Feature[] {
  return [
    authFeature,
    usersFeature,
    ticTacToeFeature,
    adminFeature,
    rolesFeature(options.roles),
    filesFeature,
    apiTokensFeature,
    noticesFeature, // before music: it hears the bot's READY
    pictionaryFeature(options.pictionary),
    osintFeature,
    musicFeature(options.music),
    discordNotesFeature,
  ];
}

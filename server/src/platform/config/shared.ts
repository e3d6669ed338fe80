import type { ToolsConfig } from '../process/config.ts';
import type { DiscordConfig } from './discord.ts';
import type { ServerConfig } from './server.ts';

/**
 * What the platform declares once for every module (`build(values, shared)`) and every feature (its
 * definition's `config` picks from it): the server's values at the root, the community's Discord
 * (`discord`) and the ffmpeg binaries (`tools`). A variable two features read is declared here, never in
 * one of them.
 */
export type SharedConfig = ServerConfig & { discord: DiscordConfig; tools: ToolsConfig };

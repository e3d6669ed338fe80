import { z } from 'zod';
import { authConfig } from './features/auth/config.ts';
import { filesConfig } from './features/files/config.ts';
import { musicConfig } from './features/music/config.ts';
import { osintConfig } from './features/osint/config.ts';
import { rolesConfig } from './features/roles/config.ts';
import { blobStoreConfig } from './platform/blob-store/config.ts';
import { buildSlice, type ConfigModule, type SliceOf, type VarDecls } from './platform/config/define.ts';
import { discordConfig } from './platform/config/discord.ts';
import { ConfigError } from './platform/config/env.ts';
import { serverConfig } from './platform/config/server.ts';
import type { SharedConfig } from './platform/config/shared.ts';
import { outboundConfig } from './platform/outbound/config.ts';
import { toolsConfig } from './platform/process/config.ts';

export { isOAuthConfigured } from './features/auth/config.ts';
export type { FilesStoreConfig } from './platform/blob-store/config.ts';
export type { TrustProxy } from './platform/config/server.ts';
export type { OutboundConfig } from './platform/outbound/config.ts';
export { ConfigError };

/**
 * The slices of the configuration, each declared (variables, defaults, checks, documentation) by its
 * own module: `config.<key>`. This file only composes them; a new variable is one entry in its module
 * (its `field` puts it in the slice).
 */
const SLICES = {
  auth: authConfig,
  files: filesConfig,
  blobStore: blobStoreConfig,
  music: musicConfig,
  roles: rolesConfig,
  outbound: outboundConfig,
  osint: osintConfig,
};

/**
 * Every config module, in the order the README table and `.env.example` show them: the platform's shared
 * ones (the server's values, the community's Discord, the ffmpeg binaries), then each slice.
 */
export const CONFIG_MODULES: readonly ConfigModule<VarDecls, unknown, never>[] = [
  serverConfig,
  authConfig,
  discordConfig,
  filesConfig,
  blobStoreConfig,
  musicConfig,
  toolsConfig,
  rolesConfig,
  outboundConfig,
  osintConfig,
];

// A slice whose module is not listed would read variables no schema parsed: caught at the first import.
for (const [key, module] of Object.entries(SLICES)) {
  if (!CONFIG_MODULES.includes(module as never))
    throw new Error(`config module "${key}" is not in CONFIG_MODULES`);
}

/** One schema of every module's variables; a name declared by two modules is a mistake caught here. */
export function envSchemaOf(modules: readonly ConfigModule<VarDecls, unknown, never>[]) {
  const shape: Record<string, z.ZodType> = {};
  for (const module of modules) {
    for (const [name, decl] of Object.entries(module.vars)) {
      if (name in shape) throw new Error(`${name} is declared twice (in "${module.title}" and before)`);
      shape[name] = decl.schema;
    }
  }
  return z.object(shape);
}

/** Every variable the server reads, one schema (so every wrong value is reported at once). */
export const EnvSchema = envSchemaOf(CONFIG_MODULES);

/**
 * The whole typed configuration: the server's process-wide values at the root (`config.port`,
 * `config.dataDir`, …), the platform's shared `discord` and `tools`, and one slice per module
 * (`config.music`, `config.blobStore`, …). A feature's FeatureContext receives only its part (its
 * `defineFeature({ config })` picks it, and names any shared value it needs).
 */
export type Config = SharedConfig & { [K in keyof typeof SLICES]: SliceOf<(typeof SLICES)[K]> };

/** Reads the environment into a typed config; a wrong value throws naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  // Every module reads its own variables out of the one parsed object (a module's `values` type is the
  // part of it that module declared): its declared fields, and what its `build` adds.
  const values = parsed.data as never;
  const shared: SharedConfig = {
    // Sources and bundle (server/dist) both sit two levels below the repository.
    ...buildSlice(serverConfig, values, { defaultDir: new URL('../../web/dist', import.meta.url).pathname }),
    discord: buildSlice(discordConfig, values, undefined),
    tools: buildSlice(toolsConfig, values, undefined),
  };
  const slices = Object.fromEntries(
    Object.entries(SLICES).map(([key, module]) => [
      key,
      buildSlice(module as unknown as ConfigModule<VarDecls, unknown, SharedConfig>, values, shared),
    ]),
  );
  return { ...shared, ...slices } as Config;
}

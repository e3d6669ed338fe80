/**
 * The production bundle of the server (one file per entry): loading one module instead of hundreds
 * halves start-up time (see bench/startup). Development and tests run the TypeScript sources
 * directly; both are the same code. Source maps go beside the bundle, so a process started with
 * --enable-source-maps (npm start does) logs stack traces that point into server/src.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'rolldown';

const src = path.join(import.meta.dirname, 'src');

export const SERVER_ENTRIES: Record<string, string> = {
  main: path.join(src, 'main.ts'),
  admin: path.join(src, 'cli/admin.ts'),
};

/** Bundles the server into `dist` (emptied first). */
export async function bundleServer(dist: string): Promise<void> {
  fs.rmSync(dist, { recursive: true, force: true });
  await build({
    input: SERVER_ENTRIES,
    platform: 'node',
    // Optional native add-ons some dependencies probe for; they are not installed and not needed.
    external: [
      /^node:/,
      'pg-native',
      'bufferutil',
      'utf-8-validate',
      // The music bot's Discord libraries load native add-ons (DAVE) and optional codecs by name at run
      // time; they stay in node_modules.
      /^@snazzah\/davey/,
      /^@discordjs\//,
      'discord.js',
      'prism-media',
      'youtubei.js',
      // Native CRC32C (a prebuilt .node per platform, loaded by name); the hash threads load it too.
      /^@node-rs\/crc32/,
    ],
    logLevel: 'warn',
    output: {
      dir: dist,
      format: 'esm',
      entryFileNames: '[name].mjs',
      // Flat output: modules resolve paths relative to themselves (web/dist, worker entries).
      chunkFileNames: '[name]-[hash].mjs',
      sourcemap: true,
    },
  });
}

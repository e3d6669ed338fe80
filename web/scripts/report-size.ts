import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Prints the gzipped JavaScript the /login page loads before it is interactive: every script and
 * modulepreload dist/index.html names, plus the entry's static imports from the Vite manifest.
 * Lazy chunks are not counted because /login does not request them (sonner loads with the first other
 * page); e2e/journeys.spec.ts checks the same budget against what the browser really fetches.
 * Goal (issue 17): under 100 KB.
 */
type ManifestChunk = { file: string; imports?: string[]; isEntry?: boolean };
const dist = path.resolve(import.meta.dirname, '../dist');
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;
const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
if (!entryKey) throw new Error('no entry chunk in the Vite manifest');

const files = new Set<string>();
const seen = new Set<string>();
const visit = (key: string) => {
  if (seen.has(key)) return;
  seen.add(key);
  const file = manifest[key]?.file;
  if (file) files.add(file);
  for (const dep of manifest[key]?.imports ?? []) visit(dep);
};
visit(entryKey);

const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
for (const m of html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/([^"]+)"/g)) {
  if (m[1]) files.add(m[1]);
}

let total = 0;
const rows: string[] = [];
for (const file of files) {
  if (!file.endsWith('.js')) continue;
  const gz = gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
  rows.push(`  ${(gz / 1024).toFixed(1).padStart(6)} KB  ${file}`);
  total += gz;
}
const kb = (total / 1024).toFixed(1);
console.log(`/login loads ${rows.length} JS file(s): ${kb} KB gzipped (goal < 100 KB)\n${rows.join('\n')}`);
if (total >= 100 * 1024) process.exitCode = 1;

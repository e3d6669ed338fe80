import fs from 'node:fs';
import path from 'node:path';

/**
 * The build's weight check (issue 31): what a cold load of /login and of /filesystem moves over the
 * wire, from the files the build wrote. Per file it counts the copy the server sends a browser that
 * accepts brotli (every current browser does): the `.br` file when precompress.ts wrote one, else the
 * file. A page is index.html, what it names (scripts, modulepreloads, stylesheets, icon), the entry's
 * static imports, and the static import graphs of the lazy modules the page loads on mount (Vite's
 * manifest). Each response also carries its headers: HEADER_BYTES is what the portal's measured
 * (security headers included, HTTP/1.1). bench/web-weight.ts and e2e/journeys.spec.ts measure the same
 * in Chromium, API calls included. Exit code 1 when a page is over its goal.
 */
type ManifestChunk = { file: string; imports?: string[]; css?: string[]; isEntry?: boolean };
type Manifest = Record<string, ManifestChunk>;

const HEADER_BYTES = 1000;
/** Pages, the lazy modules each loads on mount, and their goals (bytes on the wire). */
const PAGES: { route: string; lazy: string[]; goal: number }[] = [
  { route: '/login', lazy: [], goal: 110 * 1024 },
  {
    route: '/filesystem',
    lazy: ['src/query-provider.tsx', 'src/features/files/FilesPage.tsx'],
    goal: 250 * 1024,
  },
];

/** The files of one page: index.html, what it references, and the static graphs of the entry and `lazy`. */
export function pageFiles(manifest: Manifest, html: string, lazy: string[]): string[] {
  const files = new Set<string>(['index.html']);
  for (const m of html.matchAll(/<(?:script|link)\b[^>]*\s(?:src|href)="\/([^"]+)"/g)) {
    if (m[1]) files.add(m[1]);
  }
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the Vite manifest`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  const entry = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!entry) throw new Error('no entry chunk in the Vite manifest');
  visit(entry);
  for (const key of lazy) visit(key);
  return [...files];
}

/** The bytes the server sends for `file`: its brotli copy when the build made one. */
export function wireBytes(dist: string, file: string): number {
  const br = path.join(dist, `${file}.br`);
  return fs.statSync(fs.existsSync(br) ? br : path.join(dist, file)).size;
}

if (import.meta.main) {
  const dist = path.resolve(import.meta.dirname, '../dist');
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  for (const page of PAGES) {
    const files = pageFiles(manifest, html, page.lazy);
    const sizes = files.map((f) => ({ f, bytes: wireBytes(dist, f) })).sort((a, b) => b.bytes - a.bytes);
    const body = sizes.reduce((a, s) => a + s.bytes, 0);
    const total = body + files.length * HEADER_BYTES;
    const verdict = total <= page.goal ? 'within' : 'OVER';
    console.log(
      `${page.route} on the wire: ${kb(total)} (${kb(body)} brotli in ${files.length} files + headers), ` +
        `${verdict} the goal of ${kb(page.goal)}`,
    );
    for (const s of sizes.slice(0, 5)) console.log(`  ${kb(s.bytes).padStart(9)}  ${s.f}`);
    if (total > page.goal) process.exitCode = 1;
  }
}

import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ApiError, BinaryBody, type ErrorCode } from '@guildhall/common';
import type { FastifyInstance } from 'fastify';

const NOT_FOUND: ErrorCode = 'NOT_FOUND';

/** Helmet's headers that apply to documents only, dropped from hashed scripts and styles (issue 31). */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

// Paths that never fall back to the SPA: an unknown one is a plain 404.
const NON_SPA_PREFIXES = ['/api/', '/upload/', '/download/', '/socket.io/', '/assets/'];
/**
 * The router's limit on one path parameter (app.ts `maxParamLength`): a longer segment names no page
 * (a `/shared/:token` past it skipped its own route and landed here), so it is a 404, not the app.
 */
const MAX_SEGMENT_CHARS = 512;

/**
 * Serves the built web app: files that exist in web/dist are sent as they are (hashed assets cached
 * for a year), every other GET that is not an API path gets index.html (SPA fallback). Text files are
 * sent in the `.br` or `.gz` copy the build made next to them when the browser accepts it (with
 * `Content-Encoding` and `Vary: Accept-Encoding`), never compressed per request.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const hasBuild = fs.existsSync(path.join(distDir, 'index.html'));
  // serve: false: only reply.sendFile is wanted, so every route stays declared with its access.
  // preCompressed: the `.br`/`.gz` sibling written by web/scripts/precompress.ts, chosen by Accept-Encoding;
  // the file itself when there is none or the browser accepts neither.
  await app.register(fastifyStatic, { root: distDir, serve: false, preCompressed: true });

  const notBuilt = BinaryBody.meta({ description: 'Plain text: the web app is not built yet' });
  const page = BinaryBody.meta({ description: 'A file of the web app, or index.html for its routes' });
  app.get(
    '/*',
    { config: { access: 'public' }, schema: { response: { 200: page, 404: ApiError, 503: notBuilt } } },
    (request, reply) => {
      const url = decodeURIComponent((request.url.split('?')[0] ?? '/').replace(/%(?![0-9a-f]{2})/gi, '%25'));
      const rel = path.posix.normalize(url).replace(/^\/+/, '');
      if (
        hasBuild &&
        rel &&
        !rel.startsWith('..') &&
        rel !== 'index.html' &&
        isFile(path.join(distDir, rel))
      ) {
        const immutable = rel.startsWith('assets/');
        // Headers that only mean something on a page (a document): on the app's scripts and styles
        // they are ~0.6 KB of every response, ≈ 20 KB of a cold /filesystem over HTTP/1.1. nosniff,
        // CORP, HSTS and Referrer-Policy (which module imports follow) stay.
        if (immutable) for (const name of DOCUMENT_ONLY_HEADERS) reply.removeHeader(name);
        reply.header(
          'cache-control',
          immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
        );
        return reply.sendFile(rel, { cacheControl: false });
      }
      if (
        NON_SPA_PREFIXES.some((p) => url.startsWith(p)) ||
        url === '/upload' ||
        url.split('/').some((segment) => segment.length > MAX_SEGMENT_CHARS)
      ) {
        return reply.code(404).send({ success: false, error: `Not found: GET ${url}`, code: NOT_FOUND });
      }
      if (!hasBuild) {
        return reply
          .code(503)
          .type('text/plain')
          .send('The web app is not built yet. Run `npm run build` (npm start does it for you).');
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
    },
  );

  app.setNotFoundHandler((request, reply) => {
    const url = (request.url.split('?')[0] ?? '/').slice(0, 200);
    return reply
      .code(404)
      .send({ success: false, error: `Not found: ${request.method} ${url}`, code: NOT_FOUND });
  });
}

/**
 * The URL paths of the built web app's files (index.html aside), read once: a build does not change
 * under a running server. A GET for one of them is exempt from the global rate limit.
 */
export function webAppFiles(distDir: string): Set<string> {
  const files = new Set<string>();
  if (!fs.existsSync(distDir)) return files;
  for (const entry of fs.readdirSync(distDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const rel = path.relative(distDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (rel !== 'index.html' && !rel.startsWith('.')) files.add(`/${rel}`);
  }
  return files;
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

const appPages = new Map<string, string | null>();

/**
 * The built app's index.html with `head` in place of its `<title>` (a page's own link-preview tags:
 * Open Graph, oEmbed), or null when the app is not built. The file is read once per process (a build
 * does not change under a running server); `head` must already be escaped.
 */
export function appPageWithHead(distDir: string, head: string): string | null {
  let html = appPages.get(distDir);
  if (html === undefined) {
    try {
      html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
    } catch {
      html = null;
    }
    appPages.set(distDir, html);
  }
  if (html === null) return null;
  const title = /<title>[^<]*<\/title>/;
  // A function as replacement, so `$&`/`$1` in a file name are never read as patterns.
  return title.test(html)
    ? html.replace(title, () => head)
    : html.replace('</head>', () => `${head}\n</head>`);
}

import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import zlib from 'node:zlib';
import shipped from '../features/osint/data/wmn-data.json' with { type: 'json' };
import { parseSiteList, type Site } from '../features/osint/sites.ts';

/**
 * A loopback fixture of real sites from the shipped WhatsMyName list (issue 28): each answers a request
 * for its `known` account as its own hit rule describes and any other account as its miss rule does,
 * and some are given the failures real sites show — their own User-Agent or Accept required, POST
 * bodies, gzip and br bodies, windows-1251 pages (by header and by `<meta>` only), a 1.3 MiB profile
 * page, a 5 s answer, 429s, 5xx, Cloudflare challenges served as 200, captchas, DDoS-Guard and
 * Incapsula pages, redirects to a login page. Each site gets its own host name (`f<i>.sites.test`,
 * which the fake DNS of fake-osint.ts answers with 127.0.0.1).
 */

export type FixtureCase =
  | 'ordinary'
  | 'post'
  | 'headers'
  | 'gzip'
  | 'brotli'
  | 'cp1251-header'
  | 'cp1251-meta'
  | 'big'
  | 'slow'
  | 'redirect-hit'
  | 'rate-limited-once'
  | 'miss-is-500'
  | 'login-redirect'
  | 'cloudflare-200'
  | 'server-error'
  | 'rate-limited'
  | 'captcha'
  | 'ddos-guard'
  | 'incapsula'
  | 'cookie-redirect'
  | 'cookie-refresh'
  | 'cookie-script';

/** Cases where the site never says anything about the account: the honest verdict is "could not check". */
export const BLOCKED_CASES: ReadonlySet<FixtureCase> = new Set([
  'login-redirect',
  'cloudflare-200',
  'server-error',
  'rate-limited',
  'captcha',
  'ddos-guard',
  'incapsula',
  'cookie-script',
]);

/** Named sites for the special cases (each chosen because its rule exercises that case). */
const NAMED: [string, FixtureCase][] = [
  ['AniList', 'post'],
  ['Fiverr', 'post'],
  ['Anime-Planet', 'post'],
  ['GitHub (User)', 'headers'],
  ['VK', 'headers'],
  ['Zomato', 'headers'],
  ['Paragraph', 'headers'],
  ['7dach', 'cp1251-header'],
  ['au.ru', 'cp1251-meta'],
  ['Strava', 'redirect-hit'],
  ['osu!', 'redirect-hit'],
  ['Donatik', 'miss-is-500'],
  ['Threads', 'login-redirect'],
  ['CodeChef', 'login-redirect'],
  ['Booth', 'login-redirect'],
  ['Blogmarks', 'cloudflare-200'],
  ['Flickr', 'captcha'],
];
/** The ordinary sites' cases, in order: the first ordinary sites of the list take these. */
const ORDINARY_CASES: FixtureCase[] = [
  'gzip',
  'gzip',
  'brotli',
  'big',
  'slow',
  'rate-limited-once',
  'rate-limited-once',
  'server-error',
  'server-error',
  'rate-limited',
  'ddos-guard',
  'incapsula',
  ...Array<FixtureCase>(20).fill('ordinary'),
  // Added after the first 49 sites (which keep their cases): nginx's testcookie module in its three modes.
  'cookie-redirect',
  'cookie-refresh',
  'cookie-script',
];

/**
 * The real protections the fixture imitates, and where their behaviour is described:
 * - cloudflare-200: Cloudflare's managed challenge, `cf-mitigated: challenge`, "Just a moment...", the
 *   challenge-platform script (developers.cloudflare.com, "Challenge pages"; needs JavaScript).
 * - ddos-guard: DDoS-Guard's browser check: 403, `server: ddos-guard`, sets `__ddg1_`; passing needs the
 *   `__ddg2_` cookie its check.js obtains from `/.well-known/ddos-guard/id/…` (public bypass scripts do
 *   that dance), so a reload with `__ddg1_` alone is challenged again.
 * - incapsula: Imperva's block page ("Request unsuccessful. Incapsula incident ID"), which sets
 *   `visid_incap_…` / `incap_ses_…` as every Imperva answer does; a reload with them is blocked again.
 * - cookie-redirect / cookie-refresh / cookie-script: kyprizel/testcookie-nginx-module (README): the
 *   challenge cookie is set with a 302/307 to the same page plus an attempt counter in the query, or with
 *   an HTML meta refresh (both passed by any client that keeps cookies), or, with
 *   `testcookie_refresh_encrypt_cookie on`, computed by a script (slowAES) and never sent in Set-Cookie.
 * - captcha: DataDome's interstitial (its `captcha-delivery.com` script) at the site's own miss status.
 * - login-redirect: a 302 to `/login?next=…` for everyone (sites that hide profiles from visitors).
 * - rate-limited / rate-limited-once: 429 with `Retry-After` (RFC 6585, RFC 9110 §10.2.3): an hour, or 1 s.
 */

export type FixtureSite = { index: number; original: Site; site: Site; case: FixtureCase; known: string };

export type WmnFixture = {
  sites: FixtureSite[];
  sitesFile: string;
  /** An account no site has. */
  missing: string;
  close(): Promise<void>;
};

const isOrdinary = (s: Site) =>
  s.e_code === 200 &&
  s.m_code === 404 &&
  s.e_string !== '' &&
  s.m_string !== '' &&
  !s.headers &&
  !s.post_body &&
  !s.uri_check.includes('{account}.') &&
  /^[\x20-\x7e]*$/.test(s.e_string + s.m_string) &&
  (s.known?.length ?? 0) > 0;

export async function startWmnFixture(dir: string): Promise<WmnFixture> {
  const list = parseSiteList(shipped);
  const chosen: { original: Site; case: FixtureCase }[] = [];
  for (const [name, kind] of NAMED) {
    const site = list.find((s) => s.name === name);
    if (!site) throw new Error(`fixture: ${name} is no longer in the shipped list`);
    chosen.push({ original: site, case: kind });
  }
  const ordinary = list.filter((s) => isOrdinary(s) && !NAMED.some(([n]) => n === s.name));
  ORDINARY_CASES.forEach((kind, i) => {
    chosen.push({ original: ordinary[i]!, case: kind });
  });

  const sockets = new Set<Duplex>();
  const timers = new Set<NodeJS.Timeout>();
  const limitedOnce = new Set<string>();
  /** testcookie's cookie value for a client (the module derives it from a secret and the client's address). */
  const testCookie = (e: FixtureSite) => `TCK=${e.index}a7f3c9e1`;
  let port = 0;
  const fixture: FixtureSite[] = [];

  const server = http.createServer((req, res) => {
    const index = Number(/^f(\d+)\.sites\.test/.exec(req.headers.host ?? '')?.[1] ?? -1);
    const entry = fixture[index];
    if (!entry) return void res.writeHead(404).end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const asked = decodeURIComponent(`${req.url ?? ''} ${Buffer.concat(chunks).toString()}`).toLowerCase();
      const isKnown = asked.includes(entry.known.toLowerCase());
      const answer = () => respond(entry, isKnown, req, res);
      if (entry.case === 'slow') {
        const t = setTimeout(() => {
          timers.delete(t);
          answer();
        }, 5000);
        timers.add(t);
        return;
      }
      answer();
    });
  });

  const respond = (e: FixtureSite, hit: boolean, req: http.IncomingMessage, res: http.ServerResponse) => {
    const o = e.original;
    const send = (status: number, body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(body);
    };
    switch (e.case) {
      case 'login-redirect':
        return send(302, '', { location: `/login?next=${encodeURIComponent(req.url ?? '/')}` });
      case 'cloudflare-200':
        return send(
          200,
          '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>',
          { 'cf-mitigated': 'challenge', server: 'cloudflare' },
        );
      case 'server-error':
        return send(503, '<html><title>503 Service Unavailable</title>Service Unavailable</html>');
      case 'rate-limited':
        return send(429, 'Too Many Requests', { 'retry-after': '3600' });
      case 'captcha':
        return send(
          o.m_code,
          '<html><head><title>flickr.com</title></head><body><script src="https://ct.captcha-delivery.com/c.js"></script></body></html>',
        );
      case 'ddos-guard':
        res.setHeader('set-cookie', ['__ddg1_=Qm9ndXNEZGcx; Domain=.sites.test; Path=/; HttpOnly']);
        return send(
          403,
          '<html><head><title>DDoS-Guard</title></head><body>Checking your browser<script src="https://check.ddos-guard.net/check.js"></script></body></html>',
          {
            server: 'ddos-guard',
          },
        );
      case 'incapsula':
        res.setHeader('set-cookie', [
          'visid_incap_2481=ZmFrZXZpc2l0b3I; expires=Thu, 26 Nov 2027 09:00:00 GMT; HttpOnly; path=/',
          'incap_ses_1184_2481=ZmFrZXNlc3Npb24; path=/',
        ]);
        return send(403, '<html><body>Request unsuccessful. Incapsula incident ID: 1234-5678</body></html>');
      case 'cookie-redirect':
      case 'cookie-refresh':
      case 'cookie-script': {
        if ((req.headers.cookie ?? '').split(/;\s*/).includes(testCookie(e))) break;
        const again = `${(req.url ?? '/').split('?')[0]}?ckattempt=1`;
        if (e.case === 'cookie-redirect') {
          res.setHeader('set-cookie', [`${testCookie(e)}; expires=Thu, 31-Dec-37 23:55:55 GMT; path=/`]);
          return send(307, '', { location: again });
        }
        if (e.case === 'cookie-refresh') {
          res.setHeader('set-cookie', [`${testCookie(e)}; expires=Thu, 31-Dec-37 23:55:55 GMT; path=/`]);
          return send(
            200,
            `<html><head><meta http-equiv="refresh" content="0; url=${again}"></head><body></body></html>`,
          );
        }
        return send(
          200,
          `<html><body>setting cookie...<script src="/aes.min.js"></script><script>var c=toNumbers("9d1b2e");document.cookie="TCK="+toHex(slowAES.decrypt(c,2,a,b))+"; path=/";location.href="${again}";</script></body></html>`,
        );
      }
      case 'rate-limited-once': {
        const key = `${e.index}:${hit}`;
        if (!limitedOnce.has(key)) {
          limitedOnce.add(key);
          return send(429, 'Too Many Requests', { 'retry-after': '1' });
        }
        break;
      }
      case 'headers':
        // The site serves only clients that send its own header values (and just one of each).
        for (const [name, value] of Object.entries(o.headers ?? {})) {
          if (/^(user-agent|accept)$/i.test(name) && req.headers[name.toLowerCase()] !== value) {
            return send(403, '<html><title>Forbidden</title>Your client is not allowed</html>');
          }
        }
        break;
      case 'post':
        if (req.method !== 'POST') return send(405, 'Method Not Allowed');
        break;
    }

    const status = hit ? o.e_code : o.m_code;
    const marker = hit ? o.e_string : o.m_string;
    const headers: Record<string, string> = {};
    if (status >= 300 && status < 400) {
      headers.location = hit ? `/athletes/${e.known}` : '/';
    }
    let text = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${hit ? e.known : 'Not here'}</title></head><body><div>${marker}</div>${hit ? `<p>${e.known}</p>` : ''}</body></html>`;
    if (e.case === 'big' && hit) {
      text = `<!DOCTYPE html><html><head><title>${e.known}</title></head><body>${'<p>filler text of a long profile page</p>'.repeat(36_000)}<div>${marker}</div></body></html>`;
    }
    if (e.case === 'cp1251-header' || e.case === 'cp1251-meta') {
      const page = text.replace(
        '<meta charset="utf-8">',
        e.case === 'cp1251-meta' ? '<meta charset="windows-1251">' : '',
      );
      return send(status, encodeCp1251(page), {
        ...headers,
        'content-type': e.case === 'cp1251-header' ? 'text/html; charset=windows-1251' : 'text/html',
      });
    }
    if (e.case === 'gzip')
      return send(status, zlib.gzipSync(text), { ...headers, 'content-encoding': 'gzip' });
    if (e.case === 'brotli')
      return send(status, zlib.brotliCompressSync(text), { ...headers, 'content-encoding': 'br' });
    return send(status, text, headers);
  };

  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;

  chosen.forEach(({ original, case: kind }, index) => {
    fixture.push({
      index,
      original,
      case: kind,
      known: original.known![0]!,
      site: { ...original, uri_check: toLoopback(original.uri_check, index, port), uri_pretty: undefined },
    });
  });
  const sitesFile = path.join(dir, 'wmn-fixture.json');
  fs.writeFileSync(
    sitesFile,
    JSON.stringify({ license: [], authors: [], categories: [], sites: fixture.map((f) => f.site) }),
  );

  return {
    sites: fixture,
    sitesFile,
    missing: 'zq7nobody0x',
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/** The site's URL on its loopback host; an account in the host name moves into the path. */
function toLoopback(uri: string, index: number, port: number): string {
  const m = /^https?:\/\/([^/?#]*)(.*)$/.exec(uri);
  if (!m) throw new Error(`fixture: odd uri ${uri}`);
  const [, host, rest] = m;
  const prefix = host!.includes('{account}') ? `/__host/${host}` : '';
  return `http://f${index}.sites.test:${port}${prefix}${rest || '/'}`;
}

/** windows-1251 for ASCII and Russian letters (all the fixture's pages need). */
function encodeCp1251(text: string): Buffer {
  const out: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) out.push(c);
    else if (c >= 0x410 && c <= 0x44f) out.push(c - 0x410 + 0xc0);
    else if (c === 0x401) out.push(0xa8);
    else if (c === 0x451) out.push(0xb8);
    else if (c === 0x2013) out.push(0x96);
    else if (c === 0x2014) out.push(0x97);
    else out.push(0x3f); // '?', as a lossy encoder would
  }
  return Buffer.from(out);
}

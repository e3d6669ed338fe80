import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  codeMismatches,
  createEveryRouteApp,
  type ErrorAnswer,
  isNotReadyAnswer,
  type TestContext,
} from './test/app.ts';
import { deadline } from './test/time-scale.ts';

/**
 * Bad input on every route the server registers answers with a 4xx and a message, never a 500:
 * odd path parameters, bodies that are not objects, broken JSON, wrong types, junk query strings.
 * Called as an admin so the access check lets every request reach its handler.
 */

const PARAMS = ['x', '%00', '..%2F..%2Fetc', '9'.repeat(300), '%C3%BC', '-1', '1e400', '%F0%9F%92%A9'];
const BODIES: (string | undefined)[] = [
  undefined,
  '[]',
  '"text"',
  'null',
  '{"broken":',
  '{}',
  JSON.stringify({
    id: { $gt: 1 },
    code: 1,
    state: [],
    position: 'x',
    name: 7,
    discord_id: 'x'.repeat(9999),
  }),
  JSON.stringify({
    strokeData: { type: 'stroke_batch', segments: [{ from: {}, size: 'x' }], timestamp: 'x' },
    guess: [],
    maxRounds: 'x',
    wordBanks: [{}],
    customWords: 'x',
  }),
  JSON.stringify({ type: 'ip', query: { $ne: null } }),
  JSON.stringify({ type: 'domain', query: '%00' }),
  JSON.stringify({ quotaBytes: -1, accessLevel: 'x' }),
  // Music (issues 26, 27): NUL and text-direction characters, an integer past what a column holds
  JSON.stringify({
    name: 'a\u0000b\u202e',
    songInfo: { youtube_id: 'a\u0000', title: 't\ud800', url: 'library:x', duration: 9007199254740991 },
    volume: 1e9,
    mode: 'x',
    enabled: 'x',
  }),
  // Issue 26 #6: text PostgreSQL cannot store, in the fields that reached it (playlist and song fields, a
  // guess, an e-mail's local part), and integers past what the columns hold.
  JSON.stringify({
    name: 'mix\u0000tape',
    songInfo: {
      youtube_id: 'a\u0000',
      title: 't\u0000',
      uploader: 'u\u0000',
      url: 'https://x/',
      thumbnail: '\u0000',
    },
    guess: 'anch\u0000or',
    query: 'bob\u0000@example.com',
    type: 'email',
  }),
  JSON.stringify({ name: 'lone \ud800 surrogate', guess: '\udfff', username: 'a\u001bb' }),
  JSON.stringify({
    songInfo: {
      youtube_id: 'abc',
      title: 'T',
      url: 'https://www.youtube.com/watch?v=abc',
      duration: 9007199254740991,
    },
    duration: 2147483648,
    maxRounds: 9007199254740992, // 2^53: past the last safe integer
    position: 2147483648,
    quotaBytes: 1e300,
    limit: 9007199254740991,
  }),
  // File manager (issue 30): selections, move targets, share passwords
  JSON.stringify({ ids: [{}, '%00', 'x'.repeat(70)], targetFolderId: 7, accessLevel: 'public', password: 1 }),
  JSON.stringify({ type: 'email', query: 'a\u0000b@example.com' }),
  // Role sync (issue 43): mappings and deny roles that are not Discord ids, levels that do not exist
  JSON.stringify({
    roleLevels: [{ roleId: 'x', level: 'god' }, {}],
    denyRoles: [1, '%00'],
    noRole: 'maybe',
    demotionBrake: -1,
    intervalSeconds: 1e12,
    guildId: '\u0000',
    pinned: 'yes',
    enabled: 'on',
  }),
  // Share edits and API tokens (issue 45): limits past what a column holds, texts with control
  // characters, scopes and expiries that do not exist
  JSON.stringify({
    maxDownloads: 9007199254740991,
    title: 'a\u0000b',
    note: '\ud800',
    password: null,
    expiresAt: '',
    name: 'tok\u0000en',
    scopes: ['admin', {}],
    expiresInDays: 1e9,
  }),
  JSON.stringify({ maxDownloads: null, title: '', note: '', scopes: [], expiresInDays: -1, name: '' }),
  JSON.stringify({
    roleLevels: Array.from({ length: 300 }, () => ({ roleId: '481000000000000001', level: 'user' })),
  }),
  // Upload requests and notices (issue 45): limits past a column, types that are not types, ids of the wrong kind
  JSON.stringify({
    folderId: '..%2F',
    maxTotalBytes: 9007199254740991,
    maxFiles: 1e12,
    allowedTypes: ['exe', '.\u0000', 'image/**', {}],
    expiresAt: '2099-13-40',
    password: 'a\u0000b',
    notify: 'yes',
    ids: ['%00', 7],
    discordDm: null,
  }),
  JSON.stringify({
    folderId: 'x'.repeat(65),
    maxTotalBytes: -1,
    maxFiles: 0,
    allowedTypes: 'pdf',
    expiresAt: '1999-01-01T00:00:00Z',
    ids: 'all',
  }),
];
const QUERY = '?limit=abc&folderId[]=1&category=%00&format=%00';

let ctx: TestContext & { errorAnswers: ErrorAnswer[] };
let token: string;

beforeAll(async () => {
  ctx = await createEveryRouteApp();
  token = (await ctx.signIn({ access_level: 'admin' })).token;
});
afterAll(() => ctx.close());

describe('bad input on every route', () => {
  // Every route × every bad input (thousands of requests): minutes on a busy machine, on either database.
  it('never yields a 5xx, and API errors carry a message', { timeout: deadline(300_000) }, async () => {
    const failures: string[] = [];
    // Every route's bad inputs are sent at once (as a hostile client would), the routes one after another:
    // one request at a time this took 43 s on PostgreSQL on a machine busy with the browser tests.
    for (const route of ctx.app.registeredRoutes) {
      const probes = PARAMS.flatMap((param) => BODIES.map((body) => ({ param, body })));
      await Promise.all(
        probes.map(async ({ param, body }) => {
          const url = route.url.replace(/:[A-Za-z_]+/g, param).replace(/\*$/, param) + QUERY;
          const res = await ctx.app.inject({
            method: route.method as 'GET',
            url,
            headers: { ...bearer(token), 'content-type': 'application/json' },
            payload: body,
          });
          const where = `${route.method} ${url.slice(0, 80)} body=${String(body).slice(0, 24)}`;
          if (res.statusCode >= 500 && !isNotReadyAnswer(route.url, res)) {
            failures.push(`${where} → ${res.statusCode} ${res.body.slice(0, 120)}`);
          } else if (res.statusCode >= 400 && route.url !== '/*') {
            const json = safeJson(res.body);
            if (json?.success !== false || typeof json.error !== 'string' || json.error.length === 0) {
              failures.push(
                `${where} → ${res.statusCode} without an error message: ${res.body.slice(0, 120)}`,
              );
            }
          }
        }),
      );
    }
    expect(failures).toEqual([]);
  });

  it('a path parameter beyond the router limit (512) is refused with a 4xx', async () => {
    // Fastify's router answers this one itself (414), before the app's error envelope applies.
    for (const route of ctx.app.registeredRoutes.filter((r) => r.url.includes(':'))) {
      const url = route.url.replace(/:[A-Za-z_]+/g, '9'.repeat(600));
      const res = await ctx.app.inject({ method: route.method as 'GET', url, headers: bearer(token) });
      expect(res.statusCode, `${route.method} ${route.url}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${route.method} ${route.url}`).toBeLessThan(500);
    }
  });
});

function safeJson(text: string): { success?: unknown; error?: unknown } | null {
  try {
    return JSON.parse(text) as { success?: unknown; error?: unknown };
  } catch {
    return null;
  }
}

describe('error codes (common/src/error-codes.ts)', () => {
  it("every error answer above carries a catalogue code, with the catalogue's status for it", () => {
    expect(ctx.errorAnswers.filter((a) => a.json).length).toBeGreaterThan(20);
    expect(codeMismatches(ctx.errorAnswers)).toEqual([]);
  });
});

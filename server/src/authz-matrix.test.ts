import { API_TOKEN_SCOPES, type ApiTokenScope, hasLevel, type RouteAccess } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  codeMismatches,
  createEveryRouteApp,
  type ErrorAnswer,
  isNotReadyAnswer,
  TEST_ACCESS_CODE,
  type TestContext,
} from './test/app.ts';
import { buildUser, snowflake } from './test/factories.ts';

/**
 * The route-by-identity authorization matrix.
 *
 * MATRIX states, for every route the server registers, who is meant to call it — independently of
 * the route's own `config.access`. The test calls every route for real as each identity below and
 * checks the outcome: 401 signed out, 403 unapproved or below the level, anything but 401/403/5xx
 * when allowed (a 400 or 404 from probe input is fine: the door opened).
 *
 * Adding a route? Add one line here: `'METHOD /url': { access }`. Give it a `url` or `body` only when
 * the default probe (every `:param` = a fresh user's id, no body) would not reach the handler.
 */

type Probe = {
  /** The caller's own user id (null when signed out) and a fresh, expendable user's id. */
  me: string | null;
  target: string;
};

type Entry = {
  /** Who may call it, as observed by callers. */
  access: RouteAccess;
  /** The route's own declaration, only when it differs on purpose (the handler checks further). */
  declared?: RouteAccess;
  url?: (p: Probe) => string;
  body?: (p: Probe) => unknown;
};

const MATRIX: Record<string, Entry> = {
  // Core: configuration and sign-in
  'GET /api/config': { access: 'public' },
  'GET /api/auth/discord/url': { access: 'public' },
  'POST /api/auth/discord': { access: 'public', body: () => ({ code: 'probe', state: 'probe' }) },
  'POST /api/auth/access-code': { access: 'public', body: () => ({ code: TEST_ACCESS_CODE }) },
  'GET /api/auth/validate': { access: 'login' },
  'POST /api/auth/logout': { access: 'login' },

  // Core: users (read)
  'GET /api/users/public/approved': { access: 'login' },
  'GET /api/users/check/:id': { access: 'login' },
  // Your own record is for any member (someone else's is admin-only, tested in features/admin).
  'GET /api/users/:id': { access: 'login', url: ({ me, target }) => `/api/users/${me ?? target}` },

  // Admin: user management and audit
  'GET /api/users': { access: 'admin' },
  'POST /api/users': {
    access: 'admin',
    body: () => ({ discord_id: snowflake(), username: `probe-${snowflake()}`.slice(0, 32) }),
  },
  'PUT /api/users/:id': { access: 'admin', body: () => ({ access_level: 'moderator' }) },
  'DELETE /api/users/:id': { access: 'admin' },
  'GET /api/admin/audit': { access: 'admin' },

  // Discord role sync (issue 43): admins manage it; a member reads which role gave their level
  'GET /api/admin/role-sync': { access: 'admin' },
  'PUT /api/admin/role-sync': { access: 'admin', body: () => ({ demotionBrake: 5 }) },
  'POST /api/admin/role-sync/check': { access: 'admin' },
  'GET /api/admin/role-sync/discord-roles': { access: 'admin' },
  'POST /api/admin/role-sync/held/confirm': { access: 'admin' },
  'POST /api/admin/role-sync/held/discard': { access: 'admin' },
  'PUT /api/admin/role-sync/pins/:id': { access: 'admin', body: () => ({ pinned: false }) },
  'GET /api/role-sync/me': { access: 'login' },
  // Channel notes (issue 44)
  'GET /api/admin/discord-notes': { access: 'admin' },
  'PUT /api/admin/discord-notes': {
    access: 'admin',
    body: () => ({ channelId: null, events: { share: false, lobby: false, song: false } }),
  },
  'GET /api/admin/discord-notes/channels': { access: 'admin' },
  'POST /api/admin/discord-notes/test': { access: 'admin' },

  // Minigames: tic-tac-toe (portal-tools §2: login required)
  'POST /api/games/tic-tac-toe/join': { access: 'login' },
  'GET /api/games/tic-tac-toe/current': { access: 'login' },
  'GET /api/games/tic-tac-toe/:id': { access: 'login' },
  'POST /api/games/tic-tac-toe/:id/move': { access: 'login', body: () => ({ position: 0 }) },
  'POST /api/games/tic-tac-toe/:id/leave': { access: 'login' },
  'POST /api/games/tic-tac-toe/:id/rematch': { access: 'login' },
  'POST /api/games/tic-tac-toe/:id/claim': { access: 'login' },
  'POST /api/games/tic-tac-toe/invite': { access: 'login' },
  'POST /api/games/tic-tac-toe/:id/join': { access: 'login' },

  // Minigames: Pictionary (portal-tools §2: login required; host, drawer and guesser are checked per game)
  'POST /api/games/pictionary/join': { access: 'login' },
  'GET /api/games/pictionary/current': { access: 'login' },
  'GET /api/games/pictionary/word-banks': { access: 'login' },
  'GET /api/games/pictionary/:id': { access: 'login' },
  'POST /api/games/pictionary/:id/leave': { access: 'login' },
  'POST /api/games/pictionary/:id/settings': {
    access: 'login',
    body: () => ({ maxRounds: 3, maxPlayers: 8, wordBanks: ['general'], customWords: [] }),
  },
  'POST /api/games/pictionary/:id/start': { access: 'login' },
  'POST /api/games/pictionary/:id/draw': {
    access: 'login',
    body: () => ({ strokeData: { type: 'clear', timestamp: 1 } }),
  },
  'POST /api/games/pictionary/:id/guess': { access: 'login', body: () => ({ guess: 'cat' }) },
  'POST /api/games/pictionary/:id/join': { access: 'login' },
  'POST /api/games/pictionary/:id/play-again': { access: 'login' },
  'POST /api/games/pictionary/:id/choose': { access: 'login', body: () => ({ choice: 0 }) },
  'POST /api/games/pictionary/:id/chat': { access: 'login', body: () => ({ text: 'nice one' }) },
  'POST /api/games/pictionary/:id/kick': { access: 'login', body: (p) => ({ playerId: p.target }) },

  // Files (portal-tools §2: login; the files feature lets viewers read and users write)
  'GET /api/files': { access: 'login' },
  'GET /api/files/search': { access: 'login' },
  'GET /api/files/limits': { access: 'login' },
  'GET /api/categories': { access: 'login' },
  'GET /api/folders/:id/breadcrumbs': { access: 'login' },
  'GET /api/folders/:id/contents': { access: 'login' },
  'POST /api/folders': { access: 'user', body: () => ({ name: `probe-${snowflake()}`, parentId: null }) },
  'DELETE /api/folders/:id': { access: 'user' },
  'DELETE /api/files/:id': { access: 'user' },
  'PUT /api/files/:id/rename': { access: 'user', body: () => ({ newName: 'probe.txt' }) },
  'PUT /api/files/:id/categorize': { access: 'user', body: () => ({ category: 'documents' }) },
  'POST /upload': { access: 'user' },
  // Resumable uploads (tus): the caller's own uploads only (HEAD is left out of the list, as for every route).
  'POST /upload/resumable': { access: 'user' },
  'PATCH /upload/resumable/:fileId': { access: 'user' },
  'DELETE /upload/resumable/:fileId': { access: 'user' },
  'GET /upload/status/:fileId': { access: 'user' },
  'POST /upload/complete': {
    access: 'user',
    body: () => ({ fileId: 'probe', fileName: 'a', fileSize: 1, totalChunks: 1 }),
  },
  'POST /api/files/:id/download-ticket': { access: 'login' },
  // Declared public so a download ticket (no header) works; without one the handler requires login.
  'GET /download/:id': { access: 'login', declared: 'public' },

  // Shares: creating and managing needs user; opening a link is public (portal-tools §2, §6)
  'POST /api/files/:id/share': { access: 'user', body: () => ({ accessLevel: 'public' }) },
  'GET /api/files/:id/shares': { access: 'user' },
  'PATCH /api/files/shares/:shareId': { access: 'user', body: () => ({ title: 'probe' }) },
  'DELETE /api/files/shares/:shareId': { access: 'user' },
  'GET /api/files/shared/:token': { access: 'public' },
  'POST /api/files/shared/:token/ticket': { access: 'public' },
  'GET /api/files/shared/:token/download': { access: 'public' },
  // Folder shares (issue 45): the same public door; the share's own rules decide
  'GET /api/files/shared/:token/files': { access: 'public' },
  'POST /api/files/shared/:token/files/:fileId/ticket': { access: 'public' },
  'GET /api/files/shared/:token/files/:fileId/download': { access: 'public' },
  'GET /api/files/shared/:token/files/:fileId/thumbnail': { access: 'public' },
  'POST /api/files/shared/:token/archive-ticket': { access: 'public' },
  'GET /api/files/shared/:token/archive': { access: 'public' },

  // Storage limits (issue 15): a member's own usage; quotas are managed by admins
  'GET /api/files/usage': { access: 'login' },
  'GET /api/admin/storage': { access: 'admin' },
  'PUT /api/admin/storage/:userId': { access: 'admin', body: () => ({ quotaBytes: 1024 * 1024 }) },

  // The OpenAPI document generated from the routes (docs/api.md)
  'GET /api/openapi.json': { access: 'admin' },

  // Operations: probes for load balancers; /metrics is gated by its own METRICS_TOKEN (off here: 404)
  'GET /healthz': { access: 'public' },
  'GET /readyz': { access: 'public' },
  'GET /metrics': { access: 'public' },

  // OSINT (portal-tools §6: a stored login; viewers may search). A phone search makes no outside call.
  'POST /api/osint/search': { access: 'login', body: () => ({ type: 'phone', query: '+14155552671' }) },
  // Each member's own history (someone else's search is a 404, tested in features/osint/history.test.ts).
  'GET /api/osint/searches': { access: 'login' },
  'GET /api/osint/searches/:id': { access: 'login', url: () => '/api/osint/searches/probe-search-id' },
  'GET /api/osint/searches/:id/export': {
    access: 'login',
    url: () => '/api/osint/searches/probe-search-id/export?format=csv',
  },
  'GET /api/osint/sites': { access: 'login' },
  'POST /api/osint/reports': {
    access: 'login',
    body: () => ({ searchId: 'probe-search-id', site: 'GitHub', verdict: 'found' }),
  },
  'GET /api/osint/reports': { access: 'admin' },
  'PUT /api/osint/reports/:id': {
    access: 'admin',
    url: () => '/api/osint/reports/probe-report-id',
    body: () => ({ decision: 'dismissed' }),
  },

  // Music (portal-tools §6, issue 11): viewers read status and playlists; users and above control. The
  // every-route app runs without a bot, so control probes use an invalid guild id (400 after the access
  // check) instead of reaching "bot offline" (503); the real behaviour is in features/music.
  'GET /api/music/guilds': { access: 'login' },
  'GET /api/music/status/:guildId': { access: 'login' },
  'GET /api/music/platforms': { access: 'login' },
  'GET /api/music/lyrics/:guildId': { access: 'login' },
  'GET /api/music/history/:guildId': { access: 'login' },
  'GET /api/music/bot': { access: 'admin' },
  'POST /api/music/search': { access: 'user', body: () => ({ query: 'probe', platform: 'library' }) },
  'POST /api/music/play': { access: 'user', body: () => ({ guildId: 'x', url: 'library:x' }) },
  'POST /api/music/pause/:guildId': { access: 'user', url: () => '/api/music/pause/x' },
  'POST /api/music/resume/:guildId': { access: 'user', url: () => '/api/music/resume/x' },
  'POST /api/music/skip/:guildId': { access: 'user', url: () => '/api/music/skip/x' },
  'POST /api/music/stop/:guildId': { access: 'user', url: () => '/api/music/stop/x' },
  'POST /api/music/restart/:guildId': { access: 'user', url: () => '/api/music/restart/x' },
  'DELETE /api/music/queue/:guildId': { access: 'user', url: () => '/api/music/queue/x' },
  'PUT /api/music/queue/:guildId/reorder': { access: 'user', body: () => ({ fromIndex: -1, toIndex: 0 }) },
  'POST /api/music/seek/:guildId': { access: 'user', body: () => ({ time: 'x' }) },
  'POST /api/music/effects/:guildId': { access: 'user', body: () => ({ effects: ['x'] }) },
  'POST /api/music/equalizer/:guildId': { access: 'user', body: () => ({ eq: {} }) },
  'GET /api/music/playlists/:guildId': { access: 'login' },
  'POST /api/music/playlists/:guildId': { access: 'user', body: () => ({ name: 'Probe' }) },
  'GET /api/music/playlist/:id': { access: 'login' },
  'DELETE /api/music/playlist/:id': { access: 'user' },
  'POST /api/music/playlist/:id/songs': { access: 'user', body: () => ({ songInfo: {} }) },
  'DELETE /api/music/playlist/:id/songs/:songId': { access: 'user' },
  'POST /api/music/playlist/:id/play/:guildId': { access: 'user', body: () => ({ shuffle: 'x' }) },
  'POST /api/music/playlist/:id/queue/:guildId': { access: 'user', body: () => ({ shuffle: 'x' }) },
  'PUT /api/music/playlist/:id/visibility': { access: 'user', body: () => ({ isPublic: 'x' }) },
  'PUT /api/music/playlist/:id': { access: 'user', body: () => ({ name: 'Probe' }) },
  // Music (issue 27): one queue entry out, one to the top, shuffle, volume, loop, normalisation
  'DELETE /api/music/queue/:guildId/:entryId': { access: 'user', url: () => '/api/music/queue/x/y' },
  'POST /api/music/queue/:guildId/:entryId/next': { access: 'user', url: () => '/api/music/queue/x/y/next' },
  'POST /api/music/shuffle/:guildId': { access: 'user', url: () => '/api/music/shuffle/x' },
  'POST /api/music/volume/:guildId': { access: 'user', body: () => ({ volume: 'x' }) },
  'POST /api/music/loop/:guildId': { access: 'user', body: () => ({ mode: 'x' }) },
  'POST /api/music/normalize/:guildId': { access: 'user', body: () => ({ enabled: 'x' }) },
  'POST /api/music/fair-queue/:guildId': { access: 'moderator', body: () => ({ enabled: 'x' }) },
  'POST /api/music/no-duplicates/:guildId': { access: 'moderator', body: () => ({ enabled: 'x' }) },
  'POST /api/music/autoplay/:guildId': { access: 'user', body: () => ({ enabled: 'x' }) },

  // The built web app and its SPA fallback
  'GET /*': { access: 'public', url: () => '/dashboard' },
  // A share's page with its link-preview tags, and its oEmbed (issue 44): public, the share decides
  'GET /shared/:token': { access: 'public' },
  'GET /api/files/shared/:token/oembed': { access: 'public' },
  // File manager (issue 30): previews, thumbnails, ZIPs, search, move, trash
  // Declared public so a download ticket (no header) works; without one the handler requires login.
  'GET /api/files/:id/preview': { access: 'login', declared: 'public' },
  'GET /api/files/:id/thumbnail': { access: 'login' },
  'GET /api/files/shared/:token/preview': { access: 'public' },
  'GET /api/files/shared/:token/thumbnail': { access: 'public' },
  'POST /api/files/archive-ticket': { access: 'login', body: () => ({ ids: ['probe'] }) },
  'GET /api/files/archive': { access: 'public' },
  'GET /api/folders/:id/archive': { access: 'login' },
  'GET /api/files/find': { access: 'login', url: () => '/api/files/find?q=probe' },
  'POST /api/files/move': { access: 'user', body: () => ({ ids: ['probe'], targetFolderId: null }) },
  'GET /api/trash': { access: 'login' },

  // Personal API tokens (issue 45): each member manages their own with their session; the upload
  // endpoint and the own-files list are what tokens call (their scopes are checked in the API-token test below)
  'GET /api/tokens': { access: 'login' },
  'POST /api/tokens': {
    access: 'login',
    body: () => ({ name: `probe-${snowflake()}`, scopes: ['upload'], expiresInDays: 1 }),
  },
  'DELETE /api/tokens/:id': { access: 'login' },
  'POST /api/upload': { access: 'user' },
  'GET /api/files/mine': { access: 'login' },
  // Upload requests (issue 45): members manage their links; a guest's side is public, the link decides
  'POST /api/upload-requests': {
    access: 'user',
    body: () => ({ folderId: 'probe', maxTotalBytes: 1, maxFiles: 1, expiresAt: '2099-01-01T00:00:00Z' }),
  },
  'GET /api/upload-requests': { access: 'user' },
  'POST /api/upload-requests/:id/close': { access: 'user' },
  'GET /api/requests/:token': { access: 'public' },
  'POST /api/requests/:token/uploads': { access: 'public' },
  'PATCH /api/requests/:token/uploads/:fileId': { access: 'public' },
  'DELETE /api/requests/:token/uploads/:fileId': { access: 'public' },
  'POST /api/requests/:token/uploads/:fileId/complete': { access: 'public' },
  // Notices (issue 45): each member's own
  'GET /api/notices': { access: 'login' },
  'GET /api/notices/unread': { access: 'login' },
  'POST /api/notices/read': { access: 'login', body: () => ({}) },
  'GET /api/notices/settings': { access: 'login' },
  'PUT /api/notices/settings': { access: 'login', body: () => ({ discordDm: false }) },
  'POST /api/trash/:id/restore': { access: 'user' },
  'DELETE /api/trash/:id': { access: 'admin' },
  'DELETE /api/trash': { access: 'admin' },
};

const IDENTITIES = ['signed-out', 'unapproved', 'viewer', 'user', 'moderator', 'admin'] as const;
type Identity = (typeof IDENTITIES)[number];

type Outcome = { allowed: true } | { allowed: false; status: 401 | 403; code: string };

/** What the matrix says should happen when `identity` calls a route meant for `access`. */
function expectedOutcome(access: RouteAccess, identity: Identity): Outcome {
  if (access === 'public') return { allowed: true };
  if (identity === 'signed-out') return { allowed: false, status: 401, code: 'AUTH_REQUIRED' };
  if (identity === 'unapproved') return { allowed: false, status: 403, code: 'NOT_APPROVED' };
  if (access === 'login' || hasLevel(identity, access)) return { allowed: true };
  return { allowed: false, status: 403, code: 'FORBIDDEN' };
}

let ctx: TestContext & { errorAnswers: ErrorAnswer[] };

beforeAll(async () => {
  ctx = await createEveryRouteApp();
});
afterAll(() => ctx.close());

const routeKey = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

/** A fresh caller per call, so a logout or a removal in one probe cannot affect another. */
async function caller(identity: Identity): Promise<{ token: string | null; id: string | null }> {
  if (identity === 'signed-out') return { token: null, id: null };
  const level = identity === 'unapproved' ? 'admin' : identity; // unapproved is refused even as admin
  const { token, userId } = await ctx.signIn({
    access_level: level,
    is_approved: identity === 'unapproved' ? 0 : 1,
  });
  return { token, id: userId };
}

function fillParams(url: string, target: string): string {
  return url.replace(/:[A-Za-z_]+/g, target).replace(/\*$/, 'matrix-probe');
}

describe('authorization matrix', () => {
  it('has exactly one entry for every registered route', () => {
    const registered = ctx.app.registeredRoutes.map(routeKey);
    const missing = registered.filter((k) => !(k in MATRIX));
    const stale = Object.keys(MATRIX).filter((k) => !registered.includes(k));
    expect(missing, 'routes without a MATRIX entry (add one)').toEqual([]);
    expect(stale, 'MATRIX entries for routes that no longer exist').toEqual([]);
  });

  it('each route declares the access the matrix intends', () => {
    const mismatched = ctx.app.registeredRoutes
      .filter((r) => {
        const entry = MATRIX[routeKey(r)];
        return entry && (entry.declared ?? entry.access) !== r.access;
      })
      .map((r) => {
        const entry = MATRIX[routeKey(r)];
        return `${routeKey(r)}: declared ${r.access}, intended ${entry?.declared ?? entry?.access}`;
      });
    expect(mismatched).toEqual([]);
  });

  // Every route × every identity: several hundred requests, each with a fresh caller and target. The
  // identities of one route are probed at once (they share nothing), the routes one after another; on a
  // machine busy with the browser tests this took 21 s on PostgreSQL one probe at a time.
  it('every route answers every identity as the matrix says (401 / 403 / allowed)', async () => {
    const failures: string[] = [];
    let calls = 0;
    for (const route of ctx.app.registeredRoutes) {
      const entry = MATRIX[routeKey(route)];
      if (!entry) continue; // reported by the first test
      await Promise.all(
        IDENTITIES.map(async (identity) => {
          const who = await caller(identity);
          const target = (await buildUser(ctx.db, { username: `target-${snowflake()}` })).discord_id;
          const probe: Probe = { me: who.id, target };
          const res = await ctx.app.inject({
            method: route.method as 'GET',
            url: entry.url?.(probe) ?? fillParams(route.url, target),
            headers: who.token ? bearer(who.token) : {},
            payload: entry.body?.(probe) as object | undefined,
          });
          calls += 1;
          const want = expectedOutcome(entry.access, identity);
          const got = res.statusCode;
          const where = `${routeKey(route)} as ${identity}`;
          if (want.allowed && !reached(route.url, res)) {
            failures.push(`${where}: expected access, got ${got} ${res.body.slice(0, 120)}`);
          } else if (!want.allowed && (got !== want.status || res.json().code !== want.code)) {
            failures.push(
              `${where}: expected ${want.status} ${want.code}, got ${got} ${res.body.slice(0, 120)}`,
            );
          }
        }),
      );
    }
    expect(failures).toEqual([]);
    expect(calls).toBe(ctx.app.registeredRoutes.length * IDENTITIES.length);
  });
});

/** An allowed caller reached the handler: neither refused nor broken. */
function reached(url: string, res: { statusCode: number; body: string }): boolean {
  const got = res.statusCode;
  return got !== 401 && got !== 403 && (got < 500 || isNotReadyAnswer(url, res));
}

/**
 * The same routes called with a personal API token of an approved admin (issue 45): a token reaches
 * only routes that declare a scope it holds; a route without a scope refuses it (403 API_TOKEN_SCOPE;
 * a route declared public whose handler needs a member answers 401, as signed out), and a public route
 * without a scope treats the caller as anonymous. Admin routes never take a token.
 */
describe('API tokens on every route', () => {
  const scopeSets: ApiTokenScope[][] = [['upload'], [...API_TOKEN_SCOPES]];
  for (const scopes of scopeSets) {
    it(`a token with ${scopes.join(', ')} reaches exactly the routes of its scopes`, async () => {
      const { token: session } = await ctx.signIn({ access_level: 'admin' });
      const created = await ctx.app.inject({
        method: 'POST',
        url: '/api/tokens',
        headers: bearer(session),
        payload: { name: 'matrix', scopes, expiresInDays: 1 },
      });
      const token: string = created.json().token;
      const failures: string[] = [];
      await Promise.all(
        ctx.app.registeredRoutes.map(async (route) => {
          const entry = MATRIX[routeKey(route)];
          if (!entry) return;
          const target = (await buildUser(ctx.db, { username: `target-${snowflake()}` })).discord_id;
          const probe: Probe = { me: null, target };
          const res = await ctx.app.inject({
            method: route.method as 'GET',
            url: entry.url?.(probe) ?? fillParams(route.url, target),
            headers: bearer(token),
            payload: entry.body?.(probe) as object | undefined,
          });
          const got = res.statusCode;
          const where = `${routeKey(route)} with a ${scopes.join('+')} token`;
          const isAllowed = route.tokenScope
            ? scopes.includes(route.tokenScope)
            : route.access === 'public' && entry.access === 'public';
          if (route.access === 'admin' && got !== 403) failures.push(`${where}: admin route answered ${got}`);
          if (isAllowed && !reached(route.url, res)) {
            failures.push(`${where}: expected access, got ${got} ${res.body.slice(0, 120)}`);
          } else if (!isAllowed && got !== 403 && !(got === 401 && route.access === 'public')) {
            failures.push(`${where}: expected a refusal, got ${got} ${res.body.slice(0, 120)}`);
          } else if (!isAllowed && got === 403 && res.json().code !== 'API_TOKEN_SCOPE') {
            failures.push(`${where}: expected API_TOKEN_SCOPE, got ${res.body.slice(0, 120)}`);
          }
        }),
      );
      expect(failures).toEqual([]);
    });
  }
});

describe('error codes (common/src/error-codes.ts)', () => {
  it("every error answer above carries a catalogue code, with the catalogue's status for it", () => {
    expect(ctx.errorAnswers.filter((a) => a.json).length).toBeGreaterThan(20);
    expect(codeMismatches(ctx.errorAnswers)).toEqual([]);
  });
});

import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeDiscordUser = {
  id: string;
  username: string;
  discriminator?: string;
  avatar?: string | null;
  email?: string | null;
  global_name?: string | null;
};

type Grant = { user: FakeDiscordUser; redirectUri: string; challenge: string | null; clientId: string };

export type FakeDiscord = {
  /** Base for DISCORD_API_URL (…/api). */
  apiUrl: string;
  /** DISCORD_AUTHORIZE_URL. */
  authorizeUrl: string;
  clientId: string;
  clientSecret: string;
  /** The Discord account the next authorize request signs in as. */
  setUser: (user: FakeDiscordUser) => void;
  /** How many token exchanges succeeded (lets tests prove a reused code was refused by Discord too). */
  stats: { tokenExchanges: number; refusedExchanges: number };
  close: () => Promise<void>;
};

/**
 * A fake Discord on loopback that speaks the OAuth2 authorization-code protocol with PKCE:
 * /oauth2/authorize redirects back with a one-time code, /api/oauth2/token checks the client
 * secret, redirect URI and code verifier, and /api/users/@me returns the signed-in user.
 * Like the real Discord, the signed-in account comes from a cookie in the browser
 * (`fake_discord_user`, base64url JSON), so parallel browser tests never see each other's account;
 * without it, the account set by `setUser` or `POST /_fake/user` (JSON) is used.
 */
export async function startFakeDiscord(port = 0): Promise<FakeDiscord> {
  const clientId = '123456789012345678';
  const clientSecret = 'fake-client-secret';
  let currentUser: FakeDiscordUser = { id: '200000000000000001', username: 'alice', discriminator: '0' };
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, FakeDiscordUser>();
  const stats = { tokenExchanges: 0, refusedExchanges: 0 };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const body = await readBody(req);

    if (url.pathname === '/_health') return send(200, { ok: true });
    if (req.method === 'POST' && url.pathname === '/_fake/user') {
      currentUser = JSON.parse(body) as FakeDiscordUser;
      return send(200, { ok: true });
    }
    if (req.method === 'GET' && url.pathname === '/oauth2/authorize') {
      const q = url.searchParams;
      const redirectUri = q.get('redirect_uri') ?? '';
      if (q.get('client_id') !== clientId || !redirectUri) return send(400, { error: 'invalid_request' });
      const code = randomBytes(16).toString('hex');
      codes.set(code, {
        user: userFromCookie(req.headers.cookie) ?? currentUser,
        redirectUri,
        clientId,
        challenge: q.get('code_challenge_method') === 'S256' ? q.get('code_challenge') : null,
      });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/api/oauth2/token') {
      const form = new URLSearchParams(body);
      const code = form.get('code') ?? '';
      const grant = codes.get(code);
      codes.delete(code); // codes are single-use
      const verifier = form.get('code_verifier') ?? '';
      const challengeOk =
        !grant?.challenge || createHash('sha256').update(verifier).digest('base64url') === grant.challenge;
      if (
        !grant ||
        form.get('grant_type') !== 'authorization_code' ||
        form.get('client_id') !== clientId ||
        form.get('client_secret') !== clientSecret ||
        form.get('redirect_uri') !== grant.redirectUri ||
        !challengeOk
      ) {
        stats.refusedExchanges += 1;
        return send(400, { error: 'invalid_grant' });
      }
      stats.tokenExchanges += 1;
      const token = randomBytes(16).toString('hex');
      tokens.set(token, grant.user);
      return send(200, {
        access_token: token,
        token_type: 'Bearer',
        expires_in: 604800,
        scope: 'identify email',
      });
    }
    if (req.method === 'GET' && url.pathname === '/api/users/@me') {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const user = tokens.get(token);
      if (!user) return send(401, { message: '401: Unauthorized', code: 0 });
      return send(200, {
        discriminator: '0',
        avatar: null,
        email: null,
        global_name: null,
        ...user,
      });
    }
    return send(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    apiUrl: `${base}/api`,
    authorizeUrl: `${base}/oauth2/authorize`,
    clientId,
    clientSecret,
    stats,
    setUser: (u) => {
      currentUser = u;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const FAKE_DISCORD_USER_COOKIE = 'fake_discord_user';

function userFromCookie(header: string | undefined): FakeDiscordUser | null {
  const raw = header
    ?.split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${FAKE_DISCORD_USER_COOKIE}=`))
    ?.slice(FAKE_DISCORD_USER_COOKIE.length + 1);
  if (!raw) return null;
  try {
    return JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as FakeDiscordUser;
  } catch {
    return null;
  }
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.on('data', (c: Buffer) => {
      data += c.toString();
    });
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

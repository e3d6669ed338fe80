import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeSpotifyTrack = {
  /** 22 base-62 characters, as Spotify's. */
  id: string;
  name: string;
  artists: string[];
  durationMs: number;
  /** A playlist's local file (no id on Spotify, `is_local: true`). */
  isLocal?: boolean;
  /** Its recording's ISRC (`external_ids.isrc` of a full track object; simplified ones carry none). */
  isrc?: string;
};
export type FakeSpotifyList = { id: string; name: string; trackIds: string[] };
export type FakeSpotifyArtist = { id: string; name: string; topTrackIds: string[] };

export type FakeSpotify = {
  /** For SPOTIFY_API_URL and SPOTIFY_ACCOUNTS_URL (one server answers both). */
  url: string;
  clientId: string;
  clientSecret: string;
  /** Every request as `METHOD /path?query`, in order. */
  log: string[];
  /** ok; every request answers 500; or every request hangs until the fake closes. */
  setMode: (mode: 'ok' | 'error500' | 'hang') => void;
  /** Access tokens issued so far. */
  tokensIssued: () => number;
  close: () => Promise<void>;
};

/**
 * Spotify's Web API and its accounts service on loopback, in their documented shapes:
 * - `POST /api/token` with `Authorization: Basic base64(id:secret)` and `grant_type=client_credentials` →
 *   `{access_token, token_type: "Bearer", expires_in: 3600}`; wrong credentials → 400 `invalid_client`;
 * - every `/v1/…` call needs `Authorization: Bearer <a token it issued>`, else 401;
 * - `GET /v1/tracks/{id}` (a full track: `album.images` 640/300/64, `external_ids.isrc`), 404 for an unknown id;
 * - `GET /v1/albums/{id}` (with its first 50 tracks as a paging object) and `/v1/albums/{id}/tracks`
 *   (`limit` ≤ 50) of simplified tracks (no album);
 * - `GET /v1/playlists/{id}/tracks` (`limit` ≤ 100): paging of `{track}` items, `next` while more follow;
 * - `GET /v1/artists/{id}/top-tracks?market=` (400 without `market`).
 * Paging objects carry `items`, `total`, `limit`, `offset` and `next`/`previous` URLs on this server.
 */
export async function startFakeSpotify(data: {
  tracks: FakeSpotifyTrack[];
  albums?: FakeSpotifyList[];
  playlists?: FakeSpotifyList[];
  artists?: FakeSpotifyArtist[];
}): Promise<FakeSpotify> {
  const clientId = 'fake-spotify-client-id';
  const clientSecret = 'fake-spotify-client-secret';
  const tokens = new Set<string>();
  const log: string[] = [];
  const held = new Set<http.ServerResponse>();
  let mode: 'ok' | 'error500' | 'hang' = 'ok';
  let base = '';
  const images = (key: string) =>
    [640, 300, 64].map((w) => ({ url: `https://i.scdn.co/image/${key}-${w}`, width: w, height: w }));
  const albumOf = (t: FakeSpotifyTrack) =>
    data.albums?.find((a) => a.trackIds.includes(t.id)) ?? { id: `single${t.id}`.slice(0, 22), name: t.name };
  const simplified = (t: FakeSpotifyTrack) => ({
    id: t.isLocal ? null : t.id,
    name: t.name,
    type: 'track',
    is_local: t.isLocal === true,
    duration_ms: t.durationMs,
    artists: t.artists.map((name) => ({ name, type: 'artist' })),
    uri: t.isLocal
      ? `spotify:local:::${encodeURIComponent(t.name)}:${t.durationMs / 1000}`
      : `spotify:track:${t.id}`,
  });
  const full = (t: FakeSpotifyTrack) => {
    const album = albumOf(t);
    return {
      ...simplified(t),
      album: { id: album.id, name: album.name, images: t.isLocal ? [] : images(album.id) },
      external_ids: t.isrc ? { isrc: t.isrc } : {},
    };
  };
  const track = (id: string) => data.tracks.find((t) => t.id === id);
  const paging = <T>(all: T[], url: URL, max: number) => {
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    if (!Number.isInteger(limit) || limit < 1 || limit > max || !Number.isInteger(offset) || offset < 0)
      return null;
    const at = (o: number) => {
      const u = new URL(`${base}${url.pathname}`);
      u.searchParams.set('offset', String(o));
      u.searchParams.set('limit', String(limit));
      return u.toString();
    };
    return {
      href: at(offset),
      items: all.slice(offset, offset + limit),
      limit,
      offset,
      total: all.length,
      next: offset + limit < all.length ? at(offset + limit) : null,
      previous: offset > 0 ? at(Math.max(0, offset - limit)) : null,
    };
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    log.push(`${req.method} ${url.pathname}${url.search}`);
    if (mode === 'hang') {
      held.add(res);
      res.on('close', () => held.delete(res));
      return;
    }
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    const apiError = (status: number, message: string) => send(status, { error: { status, message } });
    if (mode === 'error500') return apiError(500, 'Server error');
    if (req.method === 'POST' && url.pathname === '/api/token') {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (d: string) => {
        raw += d;
      });
      req.on('end', () => {
        const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
        if (req.headers.authorization !== expected) {
          return send(400, { error: 'invalid_client', error_description: 'Invalid client' });
        }
        if (new URLSearchParams(raw).get('grant_type') !== 'client_credentials') {
          return send(400, {
            error: 'unsupported_grant_type',
            error_description: 'grant_type must be client_credentials',
          });
        }
        const token = `fake-token-${tokens.size + 1}`;
        tokens.add(token);
        send(200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
      });
      return;
    }
    if (req.method !== 'GET' || !url.pathname.startsWith('/v1/')) return apiError(404, 'Service not found');
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer) return apiError(401, 'No token provided');
    if (!tokens.has(bearer)) return apiError(401, 'Invalid access token');
    const m = /^\/v1\/(tracks|albums|playlists|artists)\/([^/]+)(?:\/(tracks|top-tracks))?$/.exec(
      url.pathname,
    );
    if (!m) return apiError(404, 'Service not found');
    const [, kind, id, sub] = m;
    if (!/^[0-9A-Za-z]{22}$/.test(id ?? '')) return apiError(400, 'Invalid base62 id');
    if (kind === 'tracks' && !sub) {
      const t = track(id as string);
      return t ? send(200, full(t)) : apiError(404, 'Non existing id');
    }
    if (kind === 'albums') {
      const album = data.albums?.find((a) => a.id === id);
      if (!album) return apiError(404, 'Non existing id');
      const items = album.trackIds
        .map(track)
        .filter((t): t is FakeSpotifyTrack => !!t)
        .map(simplified);
      if (!sub) {
        const first = paging(items, new URL(`${base}/v1/albums/${album.id}/tracks?limit=50&offset=0`), 50);
        return send(200, { id: album.id, name: album.name, images: images(album.id), tracks: first });
      }
      const page = sub === 'tracks' ? paging(items, url, 50) : null;
      return page ? send(200, page) : apiError(400, 'Invalid limit');
    }
    if (kind === 'playlists' && sub === 'tracks') {
      const list = data.playlists?.find((p) => p.id === id);
      if (!list) return apiError(404, 'Resource not found');
      const items = list.trackIds
        .map(track)
        .filter((t): t is FakeSpotifyTrack => !!t)
        .map((t) => ({ added_at: '2026-01-01T00:00:00Z', is_local: t.isLocal === true, track: full(t) }));
      const page = paging(items, url, 100);
      return page ? send(200, page) : apiError(400, 'Invalid limit');
    }
    if (kind === 'artists' && sub === 'top-tracks') {
      const artist = data.artists?.find((a) => a.id === id);
      if (!artist) return apiError(404, 'Non existing id');
      if (!url.searchParams.get('market')) return apiError(400, 'Missing market');
      const list = artist.topTrackIds
        .map(track)
        .filter((t): t is FakeSpotifyTrack => !!t)
        .slice(0, 10);
      return send(200, { tracks: list.map(full) });
    }
    return apiError(404, 'Service not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    clientId,
    clientSecret,
    log,
    setMode: (m) => {
      mode = m;
    },
    tokensIssued: () => tokens.size,
    async close() {
      for (const r of held) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

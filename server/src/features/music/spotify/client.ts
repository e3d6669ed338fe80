import { MUSIC_SPOTIFY_TIMEOUT_MS } from '@guildhall/common';
import type { Clock } from '../../../platform/feature.ts';
import type { Outbound } from '../../../platform/outbound/fetcher.ts';
import type { SpotifyLink } from './links.ts';

/** A track as the portal shows it: Spotify's title, artists and artwork. */
export type SpotifyTrack = {
  /** Null for a playlist's local file. */
  id: string | null;
  name: string;
  artists: string[];
  durationMs: number;
  artwork: string | null;
  isLocal: boolean;
  /**
   * The recording's ISRC (`external_ids.isrc`), which YouTube Music's search finds; null where Spotify gives
   * none (an album's tracks are simplified objects without it, a local file).
   */
  isrc: string | null;
};

/** Spotify could not be asked (down, slow, refused the credentials, or answered what cannot be read). */
export class SpotifyUnavailable extends Error {}

type Image = { url?: unknown; width?: unknown };
type RawTrack = {
  id?: unknown;
  name?: unknown;
  duration_ms?: unknown;
  is_local?: unknown;
  artists?: { name?: unknown }[];
  album?: { images?: Image[] };
  external_ids?: { isrc?: unknown };
};
type Page<T> = { items?: T[]; next?: unknown; total?: unknown };

export type SpotifyClientOptions = {
  outbound: () => Promise<Outbound>;
  /** https://api.spotify.com, or the test fake. */
  apiUrl: string;
  /** https://accounts.spotify.com, or the test fake. */
  accountsUrl: string;
  clientId: string;
  clientSecret: string;
  clock: Clock;
  timeoutMs?: number;
};

/**
 * Spotify's Web API with the client-credentials flow (an app token, no member's account): the token is
 * kept until a minute before it expires and asked again once after a 401. Every request goes through the
 * platform's outbound fetcher (its address policy, 1 MiB body cap and per-member share, `owner`) with a
 * 5 s limit; pages are followed through their `next` link until `max` tracks are read.
 */
export function createSpotifyClient(o: SpotifyClientOptions) {
  const timeoutMs = o.timeoutMs ?? MUSIC_SPOTIFY_TIMEOUT_MS;
  let token: { value: string; until: number } | null = null;
  const apiOrigin = new URL(o.apiUrl).origin;

  const send = async (
    url: string,
    init: { method?: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
    owner: string,
  ) => {
    const outbound = await o.outbound();
    const res = await outbound
      .fetch(url, { ...init, timeoutMs, owner, followRedirects: false })
      .catch((err: unknown) => {
        throw new SpotifyUnavailable(
          `Spotify did not answer: ${err instanceof Error ? err.message : String(err)}`,
        );
      });
    if (res.truncated) throw new SpotifyUnavailable('Spotify answered more than the body limit');
    return res;
  };
  const json = (body: string): unknown => {
    try {
      return JSON.parse(body) as unknown;
    } catch {
      throw new SpotifyUnavailable('Spotify answered something that is not JSON');
    }
  };

  const accessToken = async (owner: string): Promise<string> => {
    if (token && token.until > o.clock.now()) return token.value;
    const basic = Buffer.from(`${o.clientId}:${o.clientSecret}`).toString('base64');
    const res = await send(
      `${o.accountsUrl}/api/token`,
      {
        method: 'POST',
        headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      },
      owner,
    );
    if (res.status !== 200)
      throw new SpotifyUnavailable(`Spotify refused the client credentials (HTTP ${res.status})`);
    const t = json(res.body) as { access_token?: unknown; expires_in?: unknown };
    if (typeof t.access_token !== 'string') throw new SpotifyUnavailable('Spotify answered no access token');
    const seconds = typeof t.expires_in === 'number' ? t.expires_in : 3600;
    token = { value: t.access_token, until: o.clock.now() + Math.max(0, seconds - 60) * 1000 };
    return t.access_token;
  };

  /** GETs an API path (or a `next` link of the API), JSON; null when Spotify says there is no such thing. */
  const get = async (pathOrUrl: string, owner: string): Promise<unknown> => {
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${o.apiUrl}${pathOrUrl}`;
    // A `next` link is followed only to the API itself.
    if (new URL(url).origin !== apiOrigin) throw new SpotifyUnavailable('Spotify linked a page elsewhere');
    const ask = async () => {
      const bearer = await accessToken(owner);
      return send(url, { headers: { Authorization: `Bearer ${bearer}`, Accept: 'application/json' } }, owner);
    };
    let res = await ask();
    if (res.status === 401) {
      token = null; // expired early or revoked: one new token, asked once
      res = await ask();
    }
    if (res.status === 404 || res.status === 400) return null;
    if (res.status !== 200) throw new SpotifyUnavailable(`Spotify answered HTTP ${res.status}`);
    return json(res.body);
  };

  /** Reads pages from `first` on until `max` items or the last page; `total` as Spotify counts it. */
  const pages = async <T>(first: string, max: number, owner: string) => {
    const items: T[] = [];
    let total = 0;
    let next: string | null = first;
    for (let n = 0; next && items.length < max && n < 10; n++) {
      const page = (await get(next, owner)) as Page<T> | null;
      if (!page) return n === 0 ? null : { items, total };
      if (!Array.isArray(page.items))
        throw new SpotifyUnavailable('Spotify answered a page of another shape');
      total = typeof page.total === 'number' ? page.total : items.length + page.items.length;
      items.push(...page.items.slice(0, max - items.length));
      next = typeof page.next === 'string' ? page.next : null;
    }
    return { items, total: Math.max(total, items.length) };
  };

  return {
    /** The tracks of a link (at most `max`) and how many it holds in all; null when it leads to nothing. */
    async tracks(
      link: SpotifyLink,
      max: number,
      owner: string,
    ): Promise<{ tracks: SpotifyTrack[]; total: number } | null> {
      const id = encodeURIComponent(link.id);
      if (link.kind === 'track') {
        const t = (await get(`/v1/tracks/${id}`, owner)) as RawTrack | null;
        return t ? { tracks: [toTrack(t, t.album?.images)], total: 1 } : null;
      }
      if (link.kind === 'artist') {
        // Client credentials have no member's country: the market is required.
        const top = (await get(`/v1/artists/${id}/top-tracks?market=US`, owner)) as {
          tracks?: RawTrack[];
        } | null;
        if (!top) return null;
        const list = Array.isArray(top.tracks) ? top.tracks : [];
        return { tracks: list.slice(0, max).map((t) => toTrack(t, t.album?.images)), total: list.length };
      }
      if (link.kind === 'album') {
        const album = (await get(`/v1/albums/${id}`, owner)) as { images?: Image[] } | null;
        if (!album) return null;
        const read = await pages<RawTrack>(`/v1/albums/${id}/tracks?limit=50&offset=0`, max, owner);
        if (!read) return null;
        return { tracks: read.items.map((t) => toTrack(t, album.images)), total: read.total };
      }
      const fields =
        'items(track(id,name,duration_ms,is_local,external_ids(isrc),artists(name),album(images))),next,total';
      const read = await pages<{ track?: RawTrack | null }>(
        `/v1/playlists/${id}/tracks?limit=100&offset=0&fields=${encodeURIComponent(fields)}`,
        max,
        owner,
      );
      if (!read) return null;
      const tracks = read.items.map((i) =>
        i.track
          ? toTrack(i.track, i.track.album?.images)
          : { id: null, name: '', artists: [], durationMs: 0, artwork: null, isLocal: false, isrc: null },
      );
      return { tracks, total: read.total };
    },
  };
}

export type SpotifyClient = ReturnType<typeof createSpotifyClient>;

function toTrack(t: RawTrack, images: Image[] | undefined): SpotifyTrack {
  return {
    id: typeof t.id === 'string' ? t.id : null,
    name: typeof t.name === 'string' ? t.name : '',
    artists: (t.artists ?? []).map((a) => (typeof a.name === 'string' ? a.name : '')).filter(Boolean),
    durationMs: typeof t.duration_ms === 'number' ? t.duration_ms : 0,
    artwork: artworkOf(images),
    isLocal: t.is_local === true,
    isrc: isrcOf(t.external_ids?.isrc),
  };
}

/** An ISRC as defined (CC-XXX-YY-NNNNN, 12 characters, dashes dropped), upper-case; else null. */
function isrcOf(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const isrc = raw.replace(/-/g, '').toUpperCase();
  return /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/.test(isrc) ? isrc : null;
}

/** The cover closest to 300 px (Spotify lists 640, 300 and 64), else the first. */
function artworkOf(images: Image[] | undefined): string | null {
  const usable = (images ?? []).filter(
    (i): i is { url: string; width?: unknown } => typeof i.url === 'string',
  );
  const mid = usable.find((i) => typeof i.width === 'number' && i.width <= 320 && i.width >= 100);
  return (mid ?? usable[0])?.url ?? null;
}

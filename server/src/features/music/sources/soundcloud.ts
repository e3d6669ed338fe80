import type { SearchResult } from '@guildhall/common';
import type { MusicSource } from './types.ts';

type Transcoding = { url: string; format: { protocol: string; mime_type: string } };
type Track = {
  kind?: string;
  id: number;
  /** Absent on the stubs a set lists after its first few tracks. */
  title: string;
  user?: { username?: string };
  duration: number;
  permalink_url: string;
  artwork_url: string | null;
  media?: { transcodings?: Transcoding[] };
};

const TIMEOUT_MS = 8000;

/** `resolve` answers 404 for a link to nothing (a deleted track, a private or unknown set). */
const notFound = (e: unknown) => {
  if ((e as { status?: number }).status === 404) return null;
  throw e;
};

/**
 * SoundCloud through its v2 API (search/tracks, resolve, a transcoding's stream URL). Since late 2025
 * it serves AAC over HLS only; ffmpeg reads the playlist itself. Needs SOUNDCLOUD_CLIENT_ID.
 */
export function soundcloudSource(apiUrl: string, clientId: string | undefined): MusicSource {
  const get = async <T>(path: string, params: Record<string, string>): Promise<T> => {
    if (!clientId) throw new Error('SOUNDCLOUD_CLIENT_ID is not set');
    const url = new URL(path.startsWith('http') ? path : `${apiUrl}${path}`);
    for (const [k, v] of Object.entries({ ...params, client_id: clientId })) url.searchParams.set(k, v);
    const res = await fetch(url, {
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { accept: 'application/json' },
    });
    if (!res.ok)
      throw Object.assign(new Error(`SoundCloud answered HTTP ${res.status}`), { status: res.status });
    return (await res.json()) as T;
  };
  const toResult = (t: Track): SearchResult => ({
    id: String(t.id),
    youtube_id: String(t.id),
    title: t.title,
    uploader: t.user?.username ?? '',
    duration: Math.round(t.duration / 1000),
    url: t.permalink_url,
    thumbnail: t.artwork_url,
    platform: 'soundcloud',
  });
  const hlsOf = (t: Track) =>
    t.media?.transcodings?.find(
      (x) => x.format.protocol === 'hls' && x.format.mime_type.startsWith('audio/'),
    );
  return {
    platform: 'soundcloud',
    async search(query, maxResults) {
      const page = await get<{ collection: Track[] }>('/search/tracks', {
        q: query,
        limit: String(maxResults),
      });
      return page.collection
        .filter((t) => hlsOf(t))
        .slice(0, maxResults)
        .map(toResult);
    },
    owns: (url) => URL.canParse(url) && /(^|\.)soundcloud\.com$/.test(new URL(url).hostname),
    isList: (url) => URL.canParse(url) && /^\/[^/]+\/sets\/[^/]+/.test(new URL(url).pathname),
    /**
     * A set (playlist): `resolve` answers it with its first tracks in full and the rest as stubs (id only,
     * as SoundCloud does); the stubs are fetched 50 at a time from `/tracks?ids=`.
     */
    async resolveList(url, max) {
      const set = await get<{ kind?: string; track_count?: number; tracks?: Track[] }>('/resolve', {
        url,
      }).catch(notFound);
      if (set?.kind !== 'playlist') return null;
      const listed = set.tracks ?? [];
      const wanted = listed.slice(0, max);
      const full = new Map(wanted.filter((t) => t.title).map((t) => [t.id, t]));
      const missing = [...new Set(wanted.filter((t) => !t.title).map((t) => t.id))];
      for (let i = 0; i < missing.length; i += 50) {
        const got = await get<Track[]>('/tracks', { ids: missing.slice(i, i + 50).join(',') });
        for (const t of got) full.set(t.id, t);
      }
      const songs = wanted
        .map((t) => full.get(t.id))
        .filter((t): t is Track => !!t && !!hlsOf(t))
        .map(toResult);
      return { songs, total: Math.max(set.track_count ?? listed.length, listed.length) };
    },
    async resolve(url) {
      const t = await get<Track>('/resolve', { url }).catch(notFound);
      return t && (t.kind === undefined || t.kind === 'track') ? toResult(t) : null;
    },
    /** SoundCloud's related tracks (its station for the track), playable ones only. */
    async related(song, max) {
      const page = await get<{ collection?: Track[] }>(`/tracks/${encodeURIComponent(song.id)}/related`, {
        limit: String(max),
      }).catch(notFound);
      return (page?.collection ?? [])
        .filter((t) => t.title && hlsOf(t))
        .slice(0, max)
        .map(toResult);
    },
    async input(song) {
      const track = await get<Track>(`/tracks/${encodeURIComponent(song.id)}`, {});
      const hls = hlsOf(track);
      if (!hls) throw new Error('SoundCloud offers no HLS stream for this track');
      const { url } = await get<{ url: string }>(hls.url, {});
      return { kind: 'url', url };
    },
    async health() {
      try {
        await get('/search/tracks', { q: 'music', limit: '1' });
        return { available: true, reason: null };
      } catch (e) {
        return { available: false, reason: `SoundCloud did not answer: ${(e as Error).message}` };
      }
    },
  };
}

import type { SearchResult } from '@guildhall/common';
import type { Innertube } from 'youtubei.js';
import type { MusicSource } from './types.ts';

const VIDEO_ID = /^[\w-]{11}$/;
/** Playlist ids: PL…, OLAK5uy_…, UU… (an upload list), FL…; letters, digits, `-` and `_`. */
const LIST_ID = /^[\w-]{2,64}$/;
/** Playlist pages asked for beyond the cap's share (100 a page): a service that never ends its list stops here. */
const LIST_PAGES_MAX = 5;
/** Each InnerTube request is given up after this long (a stalled answer must not hold a play request). */
const REQUEST_TIMEOUT_MS = 10_000;
/** The longest a stream URL is reused for restarts of the song playing (changes, seeks). */
const INPUT_REUSE_MS = 30 * 60_000;

/** The video id in a YouTube link (watch, youtu.be, shorts, music), or null. */
export function youtubeVideoId(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const u = new URL(url);
  const host = u.hostname.replace(/^(www|m|music)\./, '');
  let id: string | null = null;
  if (host === 'youtu.be') id = u.pathname.slice(1);
  else if (host === 'youtube.com') {
    id = u.searchParams.get('v') ?? u.pathname.match(/^\/(?:shorts|embed|live)\/([\w-]{11})/)?.[1] ?? null;
  }
  return id && VIDEO_ID.test(id) ? id : null;
}

/**
 * The playlist id of a YouTube playlist link (`youtube.com/playlist?list=…`), or null. A watch link that
 * carries `&list=` is the one video (see docs/music.md): YouTube adds the list of a mix or of the page the
 * video was opened from to every watch link, and playing what the link shows is what the member expects.
 */
export function youtubePlaylistId(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const u = new URL(url);
  const host = u.hostname.replace(/^(www|m|music)\./, '');
  if (host !== 'youtube.com' || u.pathname !== '/playlist') return null;
  const id = u.searchParams.get('list');
  return id && LIST_ID.test(id) ? id : null;
}

/** The count in a stat like "1,234 videos", or null. */
function countIn(text: string | undefined): number | null {
  const m = /\d[\d,.\u00a0 ]*/.exec(text ?? '');
  const n = m ? Number(m[0].replace(/[^\d]/g, '')) : Number.NaN;
  return Number.isFinite(n) ? n : null;
}

/**
 * The InnerTube client whose player responses carry plain stream URLs (no signature or `n` parameter to
 * transform): YouTube serves the Android VR app that way, so playing needs no copy of YouTube's player
 * script and no JavaScript evaluator (which youtubei.js would need to decipher WEB formats). Search stays
 * on the WEB client, whose results carry durations and thumbnails.
 */
const STREAM_CLIENT = 'ANDROID_VR';

/** YouTube, with YouTube Music's song search (Spotify matching, issue 48). */
export type YouTubeSource = MusicSource & {
  /**
   * YouTube Music's search filtered to songs (its "Art Tracks": the label's audio, one per recording, with
   * the artists and the length), at most `max`. Played as any YouTube video: a song is a video id.
   */
  searchSongs(query: string, max: number): Promise<SearchResult[]>;
};

/**
 * YouTube through youtubei.js (the InnerTube API the site itself uses). `baseUrl` replaces
 * https://www.youtube.com in every request it makes, so a deployment can route it through a proxy and
 * tests can point it at a loopback fixture. YouTube Music's calls (client `WEB_REMIX`) go to the same
 * InnerTube endpoints, so the same base serves them.
 */
export function youtubeSource(baseUrl: string): YouTubeSource {
  const origin = 'https://www.youtube.com';
  // youtubei.js passes a Request plus an init carrying the body and headers: merge them, then re-target.
  const rewrite: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    if (!req.url.startsWith(`${origin}/`)) return fetch(req);
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await req.arrayBuffer();
    return fetch(baseUrl + req.url.slice(origin.length), {
      method: req.method,
      headers: req.headers,
      body,
      redirect: req.redirect,
      signal: AbortSignal.any([req.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
    });
  };
  let client: Promise<Innertube> | null = null;
  const yt = () => {
    client ??= loadYoutubei()
      .then(({ Innertube }) =>
        Innertube.create({
          fetch: rewrite,
          generate_session_locally: true,
          // Stream URLs come from STREAM_CLIENT, which needs no deciphering: no player script to download.
          retrieve_player: false,
        }),
      )
      .catch((e: unknown) => {
        client = null; // try again next time
        throw e;
      });
    return client;
  };
  const toResult = (v: {
    id: string;
    title: string;
    author: string;
    seconds: number;
    thumbnail: string | null;
  }): SearchResult => ({
    id: v.id,
    youtube_id: v.id,
    title: v.title,
    uploader: v.author,
    duration: Math.max(0, Math.round(v.seconds)),
    url: `https://www.youtube.com/watch?v=${v.id}`,
    thumbnail: v.thumbnail,
    platform: 'youtube',
  });
  return {
    platform: 'youtube',
    async search(query, maxResults) {
      const results = await (await yt()).search(query, { type: 'video' });
      const { YTNodes } = await loadYoutubei();
      return results.results
        .filterType(YTNodes.Video)
        .slice(0, maxResults)
        .map((v) =>
          toResult({
            id: v.video_id,
            title: v.title.toString() || 'Untitled',
            author: v.author?.name ?? '',
            seconds: v.duration?.seconds ?? 0,
            thumbnail: v.thumbnails[0]?.url ?? null,
          }),
        );
    },
    async searchSongs(query, max) {
      const found = await (await yt()).music.search(query, { type: 'song' });
      const { YTNodes } = await loadYoutubei();
      // No contents (a search that found nothing may answer without any): no songs.
      if (!found.contents) return [];
      return found.contents
        .filterType(YTNodes.MusicShelf)
        .flatMap((shelf) => shelf.contents.filterType(YTNodes.MusicResponsiveListItem))
        .filter((item) => item.item_type === 'song' && typeof item.id === 'string' && VIDEO_ID.test(item.id))
        .slice(0, max)
        .map((item) =>
          toResult({
            id: item.id as string,
            title: item.title || 'Untitled',
            author: (item.artists ?? []).map((a) => a.name).join(', '),
            seconds: item.duration?.seconds ?? 0,
            thumbnail: item.thumbnails[0]?.url ?? null,
          }),
        );
    },
    /**
     * Autoplay's related songs (issue 48): YouTube Music's radio for the video (`next` as WEB_REMIX, then its
     * automix playlist `RDAMVM<id>`: the songs YouTube Music plays after it), without the video itself and
     * without entries of unknown length (live streams).
     */
    async related(song, max) {
      const panel = await (await yt()).music.getUpNext(song.id, true);
      const { YTNodes } = await loadYoutubei();
      return panel.contents
        .filterType(YTNodes.PlaylistPanelVideo)
        .filter((v) => v.video_id !== song.id && VIDEO_ID.test(v.video_id) && v.duration.seconds > 0)
        .slice(0, max)
        .map((v) =>
          toResult({
            id: v.video_id,
            title: v.title.toString() || 'Untitled',
            author: v.artists?.map((a) => a.name).join(', ') || v.author,
            seconds: v.duration.seconds,
            thumbnail: v.thumbnail[0]?.url ?? null,
          }),
        );
    },
    owns: (url) => youtubeVideoId(url) !== null || youtubePlaylistId(url) !== null,
    isList: (url) => youtubePlaylistId(url) !== null,
    /**
     * A playlist through `getPlaylist` (InnerTube `browse` with `VL<id>`): 100 videos a page, the next
     * pages through their continuation, until `max` are taken. Unplayable entries (deleted or private
     * videos) are left out. An unknown or private playlist (YouTube's ERROR alert) is null.
     */
    async resolveList(url, max) {
      const id = youtubePlaylistId(url);
      if (!id) return null;
      const client = await yt();
      const { YTNodes, Utils } = await loadYoutubei();
      let page = await client.getPlaylist(id).catch((e: unknown) => {
        // The alert YouTube sends for a playlist that does not exist or is private to someone else.
        if (e instanceof Utils.InnertubeError && e.info instanceof YTNodes.Alert) return null;
        throw e;
      });
      if (!page) return null;
      const total = countIn(page.info.total_items);
      const songs: SearchResult[] = [];
      for (let pages = 1; ; pages++) {
        for (const v of page.items.filterType(YTNodes.PlaylistVideo)) {
          if (songs.length >= max) break;
          if (v.is_playable === false || !VIDEO_ID.test(v.id)) continue;
          songs.push(
            toResult({
              id: v.id,
              title: v.title.toString() || 'Untitled',
              author: v.author?.name ?? '',
              seconds: Number.isFinite(v.duration.seconds) ? v.duration.seconds : 0,
              thumbnail: v.thumbnails[0]?.url ?? null,
            }),
          );
        }
        if (songs.length >= max || !page.has_continuation || pages >= Math.ceil(max / 100) + LIST_PAGES_MAX)
          break;
        page = await page.getContinuation();
      }
      return { songs, total: Math.max(total ?? 0, songs.length) };
    },
    async resolve(url) {
      const id = youtubeVideoId(url);
      if (!id) return null;
      // youtubei.js throws this when the player answers `playabilityStatus.status: ERROR` (no such video).
      const info = await (await yt()).getBasicInfo(id).catch((e: unknown) => {
        if (e instanceof Error && e.message === 'This video is unavailable') return null;
        throw e;
      });
      if (!info) return null;
      const d = info.basic_info;
      return toResult({
        id,
        title: d.title ?? 'Untitled',
        author: d.author ?? '',
        seconds: d.duration ?? 0,
        thumbnail: d.thumbnail?.[0]?.url ?? null,
      });
    },
    async input(song) {
      const format = await (await yt()).getStreamingData(song.id, {
        type: 'audio',
        quality: 'best',
        format: 'any',
        client: STREAM_CLIENT,
      });
      // A format that only the player script can decipher (signatureCipher) has no plain url.
      if (!format.url)
        throw new Error('YouTube offered no stream this client can play without its player script');
      // googlevideo URLs carry their expiry (`expire`, epoch seconds, about 6 h ahead): reused until well before it.
      const expire = Number(new URL(format.url).searchParams.get('expire')) * 1000;
      const reusableUntil = Number.isFinite(expire)
        ? Math.min(expire - 30 * 60_000, Date.now() + INPUT_REUSE_MS)
        : 0;
      return { kind: 'url', url: format.url, ...(reusableUntil > Date.now() ? { reusableUntil } : {}) };
    },
    async health() {
      try {
        const found = await (await yt()).search('music', { type: 'video' });
        const { YTNodes } = await loadYoutubei();
        // A search for "music" that parses but lists no video is not YouTube answering as it should.
        if (found.results.filterType(YTNodes.Video).length === 0) {
          return { available: false, reason: 'YouTube answered a search with no videos' };
        }
        return { available: true, reason: null };
      } catch (e) {
        return { available: false, reason: `YouTube did not answer: ${(e as Error).message}` };
      }
    },
  };
}

let youtubei: Promise<typeof import('youtubei.js')> | null = null;
/**
 * youtubei.js, loaded on first use: it is ~12 MB of heap, which a portal whose members never search
 * YouTube should not carry (a larger heap makes every garbage collection dearer, uploads' included).
 */
function loadYoutubei(): Promise<typeof import('youtubei.js')> {
  youtubei ??= import('youtubei.js');
  return youtubei;
}

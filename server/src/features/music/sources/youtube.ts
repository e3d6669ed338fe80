import type { SearchResult } from '@guildhall/common';
import { Innertube, YTNodes } from 'youtubei.js';
import type { MusicSource } from './types.ts';

const VIDEO_ID = /^[\w-]{11}$/;

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
 * YouTube through youtubei.js (the InnerTube API the site itself uses). `baseUrl` replaces
 * https://www.youtube.com in every request it makes, so a deployment can route it through a proxy and
 * tests can point it at a loopback fixture.
 */
export function youtubeSource(baseUrl: string): MusicSource {
  const origin = 'https://www.youtube.com';
  const rewrite: typeof fetch = (input, init) => {
    const req = input instanceof Request ? input : new Request(input, init);
    const url = req.url.startsWith(origin) ? baseUrl + req.url.slice(origin.length) : req.url;
    return fetch(new Request(url, req));
  };
  let client: Promise<Innertube> | null = null;
  const yt = () => {
    client ??= Innertube.create({
      fetch: rewrite,
      generate_session_locally: true,
      retrieve_player: true,
    }).catch((e: unknown) => {
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
    owns: (url) => youtubeVideoId(url) !== null,
    async resolve(url) {
      const id = youtubeVideoId(url);
      if (!id) return null;
      const info = await (await yt()).getBasicInfo(id);
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
      const client = await yt();
      const format = await client.getStreamingData(song.id, { type: 'audio', quality: 'best' });
      return { kind: 'url', url: await format.decipher(client.session.player) };
    },
    async health() {
      try {
        await (await yt()).search('music', { type: 'video' });
        return { available: true, reason: null };
      } catch (e) {
        return { available: false, reason: `YouTube did not answer: ${(e as Error).message}` };
      }
    },
  };
}

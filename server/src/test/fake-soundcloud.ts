import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export type FakeSoundCloud = {
  /** For SOUNDCLOUD_API_URL. */
  apiUrl: string;
  clientId: string;
  /** Every request path, in order. */
  log: string[];
  /** ok; every API call answers 503 (an outage); or 200 with an HTML page (a captcha or a proxy's page). */
  setMode: (mode: 'ok' | 'error5xx' | 'garbage') => void;
  close: () => Promise<void>;
};

/**
 * SoundCloud's v2 API on loopback, in its response shapes: `/search/tracks` (a `collection` of tracks
 * with `media.transcodings`; every word of `q` in the title or artist), `/resolve?url=`, `/tracks/{id}` and
 * `/tracks/{id}/related` (every other track, as its station lists them), a transcoding URL that answers
 * `{url}` of an HLS playlist, and that playlist: AAC segments made by ffmpeg from a sine tone (the
 * service has served AAC over HLS only since late 2025). Every API call needs `client_id`.
 */
export async function startFakeSoundCloud(
  /** `gone`: the track's stream URL answers 404 (a track taken down after it was listed). */
  tones: { id: number; title: string; hz: number; seconds: number; gone?: boolean }[],
  /** Sets (playlists) by slug: `resolve` lists the first five tracks in full and the rest as stubs. */
  sets: { slug: string; title: string; trackIds: number[] }[] = [],
) {
  const clientId = 'fake-soundcloud-client-id';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-soundcloud-'));
  for (const t of tones) {
    const out = path.join(dir, String(t.id));
    fs.mkdirSync(out);
    const child = spawn(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=${t.hz}:sample_rate=44100:duration=${t.seconds}`,
        '-c:a',
        'aac',
        '-b:a',
        '128k',
        '-f',
        'hls',
        '-hls_time',
        '2',
        '-hls_playlist_type',
        'vod',
        '-hls_segment_filename',
        path.join(out, 'seg%03d.ts'),
        path.join(out, 'playlist.m3u8'),
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const code = await new Promise<number | null>((r) => child.on('close', r));
    if (code !== 0) throw new Error('ffmpeg could not make the HLS fixture');
  }
  const log: string[] = [];
  let base = '';
  let mode: 'ok' | 'error5xx' | 'garbage' = 'ok';
  const track = (t: (typeof tones)[number]) => ({
    kind: 'track',
    id: t.id,
    urn: `soundcloud:tracks:${t.id}`,
    title: t.title,
    duration: t.seconds * 1000,
    full_duration: t.seconds * 1000,
    permalink_url: `https://soundcloud.com/fixture-artist/${t.title.toLowerCase().replace(/\W+/g, '-')}`,
    artwork_url: `https://i1.sndcdn.com/artworks-${t.id}-large.jpg`,
    streamable: true,
    policy: 'ALLOW',
    user: { id: 77, kind: 'user', username: 'Fixture Artist', permalink: 'fixture-artist' },
    media: {
      transcodings: [
        {
          url: `${base}/media/soundcloud:tracks:${t.id}/0000/stream/hls`,
          preset: 'aac_160k',
          duration: t.seconds * 1000,
          snipped: false,
          format: { protocol: 'hls', mime_type: 'audio/mp4; codecs="mp4a.40.2"' },
          quality: 'sq',
        },
      ],
    },
  });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    log.push(url.pathname);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const hls = /^\/hls\/(\d+)\/([\w.]+)$/.exec(url.pathname);
    if (hls) {
      const file = path.join(dir, hls[1] ?? '', hls[2] ?? '');
      if (!fs.existsSync(file)) return json(404, { error: 'not found' });
      res.writeHead(200, {
        'content-type': file.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t',
      });
      fs.createReadStream(file).pipe(res);
      return;
    }
    if (mode === 'error5xx') return json(503, { error: 'Service Unavailable' });
    if (mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Just a moment...</title>');
      return;
    }
    if (url.searchParams.get('client_id') !== clientId) return json(401, { error: 'invalid client_id' });
    if (url.pathname === '/search/tracks') {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const limit = Number(url.searchParams.get('limit') ?? 10);
      // Every word of the query in the title or the artist's name, as SoundCloud's search finds them.
      const words = q.split(/\s+/).filter(Boolean);
      const found = tones.filter(
        (t) => words.every((w) => `${t.title} Fixture Artist`.toLowerCase().includes(w)) || q === 'music',
      );
      return json(200, {
        collection: found.slice(0, limit).map(track),
        total_results: found.length,
        next_href: null,
      });
    }
    if (url.pathname === '/resolve') {
      const asked = url.searchParams.get('url') ?? '';
      const set = sets.find((x) => asked === `https://soundcloud.com/fixture-artist/sets/${x.slug}`);
      if (set) {
        const byId = (id: number) => tones.find((x) => x.id === id);
        return json(200, {
          kind: 'playlist',
          id: 9000,
          title: set.title,
          permalink_url: asked,
          track_count: set.trackIds.length,
          tracks: set.trackIds.map((id, i) => {
            const t = byId(id);
            return i < 5 && t
              ? track(t)
              : { id, kind: 'track', monetization_model: 'NOT_APPLICABLE', policy: 'ALLOW' };
          }),
        });
      }
      const t = tones.find((x) => track(x).permalink_url === asked);
      return t ? json(200, track(t)) : json(404, { error: 'not found' });
    }
    if (url.pathname === '/tracks') {
      const ids = (url.searchParams.get('ids') ?? '').split(',').map(Number);
      if (ids.length > 50) return json(400, { error: 'at most 50 ids' });
      return json(200, tones.filter((x) => ids.includes(x.id)).map(track));
    }
    const related = /^\/tracks\/(\d+)\/related$/.exec(url.pathname);
    if (related) {
      // SoundCloud's "related tracks" (its station): here every other track, in the fixture's order.
      const t = tones.find((x) => x.id === Number(related[1]));
      if (!t) return json(404, { error: 'not found' });
      const limit = Number(url.searchParams.get('limit') ?? 10);
      return json(200, {
        collection: tones
          .filter((x) => x !== t)
          .slice(0, limit)
          .map(track),
        next_href: null,
      });
    }
    const byId = /^\/tracks\/(\d+)$/.exec(url.pathname);
    if (byId) {
      const t = tones.find((x) => x.id === Number(byId[1]));
      return t ? json(200, track(t)) : json(404, { error: 'not found' });
    }
    const media = /^\/media\/soundcloud:tracks:(\d+)\/\d+\/stream\/hls$/.exec(url.pathname);
    if (media) {
      if (tones.find((x) => x.id === Number(media[1]))?.gone) return json(404, { error: 'not found' });
      return json(200, { url: `${base}/hls/${media[1]}/playlist.m3u8` });
    }
    return json(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    apiUrl: base,
    clientId,
    log,
    setMode: (m: 'ok' | 'error5xx' | 'garbage') => {
      mode = m;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  } satisfies FakeSoundCloud;
}

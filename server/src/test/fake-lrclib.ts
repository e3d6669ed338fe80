import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One LRCLIB record, in its API's field names. */
export type FakeLyricsRecord = {
  trackName: string;
  artistName: string;
  albumName?: string;
  duration: number;
  instrumental?: boolean;
  plainLyrics: string | null;
  syncedLyrics: string | null;
};

export type FakeLrclib = {
  /** For MUSIC_LYRICS_URL. */
  url: string;
  /** Every request's path and query, in order. */
  log: string[];
  /** ok; every request answers 500; or every request hangs (never answered until the fake closes). */
  setMode: (mode: 'ok' | 'error500' | 'hang') => void;
  /** Requests that are hanging now. */
  hanging: () => number;
  close: () => Promise<void>;
};

/**
 * LRCLIB on loopback, in its API's shapes: `GET /api/get?artist_name=&track_name=&album_name=&duration=`
 * answers the record whose artist and track match (case-insensitive) and whose duration is within 2 s
 * (LRCLIB's own rule), else 404 `{code: 404, name: "TrackNotFound"}`; `GET /api/search?q=` lists the
 * records whose "artist track" contains every word of `q`.
 */
export async function startFakeLrclib(records: FakeLyricsRecord[]): Promise<FakeLrclib> {
  let mode: 'ok' | 'error500' | 'hang' = 'ok';
  const log: string[] = [];
  const held = new Set<http.ServerResponse>();
  const withIds = records.map((r, i) => ({ id: i + 1, albumName: '', instrumental: false, ...r }));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    log.push(`${url.pathname}${url.search}`);
    if (mode === 'hang') {
      held.add(res);
      res.on('close', () => held.delete(res));
      return;
    }
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (mode === 'error500') return send(500, { code: 500, name: 'InternalServerError' });
    const lower = (v: string | null) => (v ?? '').toLowerCase();
    if (url.pathname === '/api/get') {
      const duration = url.searchParams.get('duration');
      const hit = withIds.find(
        (r) =>
          lower(r.artistName) === lower(url.searchParams.get('artist_name')) &&
          lower(r.trackName) === lower(url.searchParams.get('track_name')) &&
          (duration === null || Math.abs(r.duration - Number(duration)) <= 2),
      );
      if (!hit)
        return send(404, { code: 404, name: 'TrackNotFound', message: 'Failed to find specified track' });
      return send(200, hit);
    }
    if (url.pathname === '/api/search') {
      const words = lower(url.searchParams.get('q')).split(/\s+/).filter(Boolean);
      if (words.length === 0) return send(400, { code: 400, name: 'BadRequest' });
      return send(
        200,
        withIds.filter((r) => words.every((w) => lower(`${r.artistName} ${r.trackName}`).includes(w))),
      );
    }
    send(404, { code: 404, name: 'NotFound' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    setMode: (m) => {
      mode = m;
    },
    hanging: () => held.size,
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

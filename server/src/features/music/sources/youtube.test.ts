import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type FakeYouTube, startFakeYouTube } from '../../../test/fake-youtube.ts';
import { youtubePlaylistId, youtubeSource, youtubeVideoId } from './youtube.ts';

describe('YouTube links', () => {
  test('finds the video id in watch, short, shorts, embed and music links', () => {
    for (const url of [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s',
      'https://m.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://music.youtube.com/watch?v=dQw4w9WgXcQ&list=RD',
      'https://youtu.be/dQw4w9WgXcQ',
      'https://www.youtube.com/shorts/dQw4w9WgXcQ',
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
    ]) {
      expect(youtubeVideoId(url), url).toBe('dQw4w9WgXcQ');
    }
  });

  test('refuses other hosts, malformed ids and non-URLs', () => {
    for (const url of [
      'https://example.com/watch?v=dQw4w9WgXcQ',
      'https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
      'https://www.youtube.com/watch?v=short',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ%3Cscript',
      'library:dQw4w9WgXcQ',
      'not a url',
    ]) {
      expect(youtubeVideoId(url), url).toBeNull();
    }
  });
});

describe('YouTube playlist links', () => {
  test('finds the list id in playlist links only; a watch link with &list= stays the one video', () => {
    const id = 'PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf';
    for (const url of [
      `https://www.youtube.com/playlist?list=${id}`,
      `https://youtube.com/playlist?list=${id}&si=abc`,
      `https://m.youtube.com/playlist?list=${id}`,
      `https://music.youtube.com/playlist?list=${id}`,
    ]) {
      expect(youtubePlaylistId(url), url).toBe(id);
      expect(youtubeVideoId(url), url).toBeNull();
    }
    const watch = `https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=${id}&index=3`;
    expect(youtubePlaylistId(watch)).toBeNull();
    expect(youtubeVideoId(watch)).toBe('dQw4w9WgXcQ');
    for (const url of [
      'https://www.youtube.com/playlist',
      'https://www.youtube.com/playlist?list=',
      'https://www.youtube.com/playlist?list=PL%3Cscript%3E',
      `https://evil.example/playlist?list=${id}`,
    ]) {
      expect(youtubePlaylistId(url), url).toBeNull();
    }
  });
});

describe('YouTube through InnerTube, against a loopback fixture in its response shapes', () => {
  let yt: FakeYouTube;
  beforeAll(async () => {
    yt = await startFakeYouTube(
      [
        { id: 'fixtureA440', title: 'Sine Tone 440', channel: 'Fixture Channel', hz: 440, seconds: 125 },
        { id: 'fixtureB300', title: 'Other tone', channel: 'Fixture Channel', hz: 300, seconds: 4 },
      ],
      [
        {
          id: 'PLfixtureLong0000000000000000000250',
          title: 'Long',
          videoIds: Array.from({ length: 250 }, (_, i) => (i % 2 ? 'fixtureA440' : 'fixtureB300')),
        },
      ],
    );
  });
  afterAll(async () => {
    await yt?.close();
  });

  test('search maps videoRenderers to songs: id, title, channel, duration, largest thumbnail, watch url', async () => {
    const source = youtubeSource(yt.baseUrl);
    expect(await source.search('sine tone', 10)).toEqual([
      {
        id: 'fixtureA440',
        youtube_id: 'fixtureA440',
        title: 'Sine Tone 440',
        uploader: 'Fixture Channel',
        duration: 125,
        url: 'https://www.youtube.com/watch?v=fixtureA440',
        thumbnail: 'https://i.ytimg.com/vi/fixtureA440/hq720.jpg',
        platform: 'youtube',
      },
    ]);
    expect((await source.search('music', 1)).map((s) => s.id)).toEqual(['fixtureA440']);
    // The session's config, then the search as the WEB client; no player script is fetched.
    expect(yt.log).toEqual([
      'POST /youtubei/v1/config WEB',
      'POST /youtubei/v1/search WEB',
      'POST /youtubei/v1/search WEB',
    ]);
  });

  test('resolves a link from the player response, and an unknown video to nothing', async () => {
    const source = youtubeSource(yt.baseUrl);
    expect(await source.resolve('https://youtu.be/fixtureB300')).toMatchObject({
      id: 'fixtureB300',
      title: 'Other tone',
      uploader: 'Fixture Channel',
      duration: 4,
      thumbnail: 'https://i.ytimg.com/vi/fixtureB300/hq720.jpg',
      platform: 'youtube',
    });
    expect(await source.resolve('https://www.youtube.com/watch?v=missing0000')).toBeNull();
  });

  test('a playlist is read page by page through its continuations, up to the number asked for', async () => {
    const source = youtubeSource(yt.baseUrl);
    const url = 'https://www.youtube.com/playlist?list=PLfixtureLong0000000000000000000250';
    const from = yt.log.length;
    const all = await source.resolveList?.(url, 1000);
    expect(all?.total).toBe(250);
    expect(all?.songs).toHaveLength(250);
    expect(all?.songs.slice(0, 2)).toEqual([
      {
        id: 'fixtureB300',
        youtube_id: 'fixtureB300',
        title: 'Other tone',
        uploader: 'Fixture Channel',
        duration: 4,
        url: 'https://www.youtube.com/watch?v=fixtureB300',
        thumbnail: 'https://i.ytimg.com/vi/fixtureB300/hq720.jpg',
        platform: 'youtube',
      },
      expect.objectContaining({ id: 'fixtureA440', duration: 125 }),
    ]);
    // The first page and two continuations (100 + 100 + 50).
    expect(yt.log.slice(from).filter((l) => l === 'POST /youtubei/v1/browse WEB')).toHaveLength(3);
    const cut = await source.resolveList?.(url, 150);
    expect(cut?.songs).toHaveLength(150);
    expect(cut?.total).toBe(250);
    expect(await source.resolveList?.('https://www.youtube.com/playlist?list=PLunknown', 10)).toBeNull();
  });

  test('plays the audio-only format that the Android VR client gets as a plain URL', async () => {
    const source = youtubeSource(yt.baseUrl);
    const song = await source.resolve('https://www.youtube.com/watch?v=fixtureA440');
    if (!song) throw new Error('the fixture video did not resolve');
    const input = await source.input(song);
    if (input.kind !== 'url') throw new Error('expected a URL input');
    const url = new URL(input.url);
    expect(url.origin).toBe(yt.baseUrl);
    expect(url.pathname).toBe('/videoplayback');
    expect(url.searchParams.get('itag')).toBe('251');
    expect(yt.log).toContain('POST /youtubei/v1/player ANDROID_VR');
    const res = await fetch(input.url, { headers: { range: 'bytes=0-3' } });
    expect(res.status).toBe(206);
    // The EBML magic of a WebM file.
    expect(Buffer.from(await res.arrayBuffer()).toString('hex')).toBe('1a45dfa3');
  });

  test('health: Available from a real search; Unavailable with the reason when garbage, empty or down', async () => {
    expect(await youtubeSource(yt.baseUrl).health()).toEqual({ available: true, reason: null });

    yt.setMode('garbage');
    try {
      const garbage = await youtubeSource(yt.baseUrl).health();
      expect(garbage.available).toBe(false);
      expect(garbage.reason).toMatch(/^YouTube did not answer: .+/);
    } finally {
      yt.setMode('ok');
    }

    const empty = await startFakeYouTube([]);
    try {
      expect(await youtubeSource(empty.baseUrl).health()).toEqual({
        available: false,
        reason: 'YouTube answered a search with no videos',
      });
    } finally {
      await empty.close();
    }

    const down = await youtubeSource('http://127.0.0.1:9').health();
    expect(down.available).toBe(false);
    expect(down.reason).toMatch(/^YouTube did not answer: .+/);
  });
});

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export type FakeYouTubeVideo = {
  /** 11 characters, as YouTube's ids. */
  id: string;
  title: string;
  channel: string;
  /** The tone the video's audio plays. */
  hz: number;
  seconds: number;
  /**
   * On YouTube Music as a song (an "Art Track", `MUSIC_VIDEO_TYPE_ATV`): its artists, album and ISRC. YouTube
   * Music's search finds it by its ISRC or by words of its title, artists and album.
   */
  music?: { artists: string[]; album?: string; isrc?: string };
  /** YouTube Music's radio after this video (its Up next, `RDAMVM<id>`), by id. */
  related?: string[];
};

/** A public playlist of the fixture: its videos in order (an id may repeat, as on YouTube). */
export type FakeYouTubePlaylist = {
  /** A playlist id as YouTube's (PL + 32 characters, OLAK5uy_…); the browse id is `VL` + it. */
  id: string;
  title: string;
  videoIds: string[];
  /** Someone else's private playlist: YouTube answers as for one that does not exist. */
  private?: boolean;
};

/** Items YouTube lists per playlist page (the first page and each continuation). */
export const PLAYLIST_PAGE_SIZE = 100;

export type FakeYouTube = {
  /** For YOUTUBE_BASE_URL: stands in for https://www.youtube.com. */
  baseUrl: string;
  /** Every request as `METHOD /path` (InnerTube calls with the client name: `POST /youtubei/v1/player ANDROID_VR`). */
  log: string[];
  /** `garbage`: InnerTube answers 200 with an HTML page, as a captive portal or a consent wall would. */
  /** ok; an HTML page instead of JSON (garbage); or 503 on every InnerTube call (an outage). */
  setMode: (mode: 'ok' | 'garbage' | 'error5xx') => void;
  /** The queries YouTube Music's search was asked, in order. */
  musicSearches: string[];
  /** YouTube Music's calls (client `WEB_REMIX`) alone: ok, or 503 (the rest of YouTube still answers). */
  setMusicMode: (mode: 'ok' | 'error5xx') => void;
  /** Every search answers this many ms late (a slow YouTube, issue 44's "search delayed 5 s"); 0: at once. */
  setSearchDelay: (ms: number) => void;
  close: () => Promise<void>;
};

type InnerTubeBody = {
  context?: { client?: { clientName?: string } };
  query?: string;
  videoId?: string;
  browseId?: string;
  continuation?: string;
  playlistId?: string;
  params?: string;
};

/**
 * YouTube's InnerTube API on loopback, in the response shapes youtubei.js parses (written from its
 * parsers: `Search`, `Video`, `MediaInfo`, `Format`, `VideoDetails`):
 * - `POST /youtubei/v1/config`: the session's config (`responseContext.globalConfigGroup`, `configData`);
 * - `POST /youtubei/v1/search`: `twoColumnSearchResultsRenderer` → `sectionListRenderer` →
 *   `itemSectionRenderer` of `videoRenderer`s (title runs, owner text, length text, thumbnails smallest
 *   first), a continuation item, `estimatedResults`;
 * - `POST /youtubei/v1/player`: `playabilityStatus`, `videoDetails`, and `streamingData.adaptiveFormats`:
 *   an Opus audio format (itag 251) and a video-only one (itag 247). For the `ANDROID_VR` client they
 *   carry a plain `url`, as YouTube serves that client; for `WEB` they carry a `signatureCipher` that only
 *   the player script can decipher (so a client that asks as WEB without a JS evaluator cannot play);
 *   an unknown id answers `playabilityStatus.status: ERROR`;
 * - `POST /youtubei/v1/browse` with `browseId: VL<playlist id>`: a playlist page as captured from YouTube
 *   (2025–26): `contents.twoColumnBrowseResultsRenderer.tabs[0].tabRenderer.content.sectionListRenderer` →
 *   `itemSectionRenderer` → `playlistVideoListRenderer` of up to 100 `playlistVideoRenderer`s (videoId,
 *   title runs with an accessibility label, index, shortBylineText, lengthText, lengthSeconds, isPlayable,
 *   thumbnails smallest first), then a `continuationItemRenderer` whose `continuationCommand` (request
 *   `CONTINUATION_REQUEST_TYPE_BROWSE`) asks for the next page; `metadata.playlistMetadataRenderer`, and
 *   `sidebar.playlistSidebarRenderer` whose primary info's first stat is the video count ("120 videos");
 *   with `continuation: <token>`: `onResponseReceivedActions[0].appendContinuationItemsAction` of the next
 *   items (and another continuation item while more follow); an unknown or private playlist answers 200
 *   with only `alerts: [alertRenderer {type: ERROR, text: "The playlist does not exist."}]`, as YouTube does;
 * - YouTube Music, the same endpoints asked as the `WEB_REMIX` client (as youtubei.js's `music` client asks
 *   them): `search` → `tabbedSearchResultsRenderer` → `sectionListRenderer` → a `musicShelfRenderer` "Songs"
 *   of `musicResponsiveListItemRenderer`s (a title column whose watch endpoint says
 *   `MUSIC_VIDEO_TYPE_ATV`, then "Artist & Artist • Album • 3:45" with artist `UC…` and album `MPR…` browse
 *   ids), found by ISRC or by every word; nothing found: a `messageRenderer` "No results found"; `next` for a
 *   video → `singleColumnMusicWatchNextResultsRenderer` whose Up next tab's `playlistPanelRenderer` holds the
 *   video and an `automixPreviewVideoRenderer` pointing at `RDAMVM<id>`; `next` with that playlist id → the
 *   radio: the video, then its `related` ones (`playlistPanelVideoRenderer`s with title, byline runs,
 *   `lengthText`, thumbnails);
 * - `GET /videoplayback?id=&itag=`: the audio (WebM/Opus made by ffmpeg from a sine tone), with Range,
 *   as googlevideo.com serves it.
 */
export async function startFakeYouTube(
  videos: FakeYouTubeVideo[],
  playlists: FakeYouTubePlaylist[] = [],
): Promise<FakeYouTube> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-youtube-'));
  for (const v of videos) {
    const child = spawn(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=${v.hz}:sample_rate=48000:duration=${v.seconds}`,
        '-ac',
        '2',
        '-c:a',
        'libopus',
        '-b:a',
        '96k',
        '-f',
        'webm',
        path.join(dir, `${v.id}.webm`),
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const code = await new Promise<number | null>((r) => child.on('close', r));
    if (code !== 0) throw new Error('ffmpeg could not make the YouTube fixture');
  }
  const log: string[] = [];
  const musicSearches: string[] = [];
  let mode: 'ok' | 'garbage' | 'error5xx' = 'ok';
  let musicMode: 'ok' | 'error5xx' = 'ok';
  let searchDelayMs = 0;
  let base = '';

  const thumbnails = (id: string) => ({
    thumbnails: [
      { url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg?sqp=small`, width: 360, height: 202 },
      { url: `https://i.ytimg.com/vi/${id}/hq720.jpg`, width: 720, height: 404 },
    ],
  });
  const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  const channelRun = (v: FakeYouTubeVideo) => ({
    runs: [
      {
        text: v.channel,
        navigationEndpoint: {
          browseEndpoint: { browseId: 'UCfixturechannel000000000', canonicalBaseUrl: '/@fixture' },
        },
      },
    ],
  });
  const videoRenderer = (v: FakeYouTubeVideo) => ({
    videoRenderer: {
      videoId: v.id,
      thumbnail: thumbnails(v.id),
      title: { runs: [{ text: v.title }], accessibility: { accessibilityData: { label: v.title } } },
      longBylineText: channelRun(v),
      ownerText: channelRun(v),
      shortBylineText: channelRun(v),
      publishedTimeText: { simpleText: '2 years ago' },
      lengthText: {
        accessibility: { accessibilityData: { label: `${v.seconds} seconds` } },
        simpleText: clock(v.seconds),
      },
      viewCountText: { simpleText: '1,234 views' },
      navigationEndpoint: {
        commandMetadata: {
          webCommandMetadata: { url: `/watch?v=${v.id}`, webPageType: 'WEB_PAGE_TYPE_WATCH' },
        },
        watchEndpoint: { videoId: v.id },
      },
      thumbnailOverlays: [
        {
          thumbnailOverlayTimeStatusRenderer: {
            text: { simpleText: clock(v.seconds) },
            style: 'DEFAULT',
          },
        },
      ],
    },
  });
  const search = (query: string) => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const found = videos.filter(
      (v) => words.every((w) => v.title.toLowerCase().includes(w)) || query === 'music',
    );
    return {
      responseContext: { visitorData: 'CgtmaXh0dXJlMDAwMA%3D%3D', serviceTrackingParams: [] },
      estimatedResults: String(found.length),
      contents: {
        twoColumnSearchResultsRenderer: {
          primaryContents: {
            sectionListRenderer: {
              contents: [
                { itemSectionRenderer: { contents: found.map(videoRenderer) } },
                {
                  continuationItemRenderer: {
                    trigger: 'CONTINUATION_TRIGGER_ON_ITEM_SHOWN',
                    continuationEndpoint: {
                      continuationCommand: { token: 'fixture', request: 'CONTINUATION_REQUEST_TYPE_SEARCH' },
                    },
                  },
                },
              ],
            },
          },
        },
      },
      refinements: [],
    };
  };
  const format = (v: FakeYouTubeVideo, client: string, itag: 251 | 247) => {
    const url = new URL(`${base}/videoplayback`);
    url.searchParams.set('expire', String(Math.floor(Date.now() / 1000) + 21_600));
    url.searchParams.set('id', v.id);
    url.searchParams.set('itag', String(itag));
    url.searchParams.set('source', 'youtube');
    url.searchParams.set('mime', itag === 251 ? 'audio/webm' : 'video/webm');
    url.searchParams.set('c', client);
    const where =
      client === 'WEB'
        ? {
            signatureCipher: `s=${encodeURIComponent('AOq0QJ8wRQIhAfixture')}&sp=sig&url=${encodeURIComponent(url.toString())}`,
          }
        : { url: url.toString() };
    const size = fs.statSync(path.join(dir, `${v.id}.webm`)).size;
    return itag === 251
      ? {
          itag,
          ...where,
          mimeType: 'audio/webm; codecs="opus"',
          bitrate: 110_000,
          initRange: { start: '0', end: '258' },
          indexRange: { start: '259', end: '300' },
          lastModified: '1700000000000000',
          contentLength: String(size),
          quality: 'tiny',
          projectionType: 'RECTANGULAR',
          averageBitrate: 96_000,
          audioQuality: 'AUDIO_QUALITY_MEDIUM',
          approxDurationMs: String(v.seconds * 1000),
          audioSampleRate: '48000',
          audioChannels: 2,
          loudnessDb: -3.5,
        }
      : {
          itag,
          ...where,
          mimeType: 'video/webm; codecs="vp9"',
          bitrate: 1_500_000,
          width: 1280,
          height: 720,
          lastModified: '1700000000000000',
          contentLength: '1000000',
          quality: 'hd720',
          fps: 30,
          qualityLabel: '720p',
          projectionType: 'RECTANGULAR',
          averageBitrate: 1_200_000,
          approxDurationMs: String(v.seconds * 1000),
        };
  };
  const player = (videoId: string, client: string) => {
    const v = videos.find((x) => x.id === videoId);
    if (!v) {
      return {
        responseContext: { serviceTrackingParams: [] },
        playabilityStatus: { status: 'ERROR', reason: 'Video unavailable', contextParams: 'Q0FFU0FnZ0I=' },
      };
    }
    return {
      responseContext: { serviceTrackingParams: [] },
      playabilityStatus: { status: 'OK', playableInEmbed: true, contextParams: 'Q0FFU0FnZ0I=' },
      streamingData: {
        expiresInSeconds: '21540',
        adaptiveFormats: [format(v, client, 247), format(v, client, 251)],
      },
      videoDetails: {
        videoId: v.id,
        title: v.title,
        lengthSeconds: String(v.seconds),
        channelId: 'UCfixturechannel000000000',
        isOwnerViewing: false,
        shortDescription: 'A sine tone.',
        isCrawlable: true,
        thumbnail: thumbnails(v.id),
        allowRatings: true,
        viewCount: '1234',
        author: v.channel,
        isPrivate: false,
        isUnpluggedCorpus: false,
        isLiveContent: false,
      },
      playerConfig: {
        audioConfig: { loudnessDb: -3.5, perceptualLoudnessDb: -17.5, enablePerFormatLoudness: true },
      },
    };
  };

  const playlistVideoRenderer = (v: FakeYouTubeVideo, list: FakeYouTubePlaylist, index: number) => ({
    playlistVideoRenderer: {
      videoId: v.id,
      thumbnail: thumbnails(v.id),
      title: {
        runs: [{ text: v.title }],
        accessibility: { accessibilityData: { label: `${v.title} ${v.seconds} seconds` } },
      },
      index: { simpleText: String(index + 1) },
      shortBylineText: channelRun(v),
      lengthText: {
        accessibility: { accessibilityData: { label: `${v.seconds} seconds` } },
        simpleText: clock(v.seconds),
      },
      navigationEndpoint: {
        commandMetadata: {
          webCommandMetadata: {
            url: `/watch?v=${v.id}&list=${list.id}&index=${index + 1}`,
            webPageType: 'WEB_PAGE_TYPE_WATCH',
            rootVe: 3832,
          },
        },
        watchEndpoint: { videoId: v.id, playlistId: list.id, index, params: 'OAI%3D' },
      },
      lengthSeconds: String(v.seconds),
      trackingParams: 'CJgDEMY0GAEiEwiJfixture',
      isPlayable: true,
      thumbnailOverlays: [
        {
          thumbnailOverlayTimeStatusRenderer: {
            text: { simpleText: clock(v.seconds) },
            style: 'DEFAULT',
          },
        },
      ],
      videoInfo: { runs: [{ text: '1,234 views' }, { text: ' • ' }, { text: '2 years ago' }] },
    },
  });
  /** The opaque token of the page starting at `offset` (YouTube's are protobuf; any string works as one). */
  const continuationToken = (list: FakeYouTubePlaylist, offset: number) =>
    Buffer.from(JSON.stringify({ list: list.id, offset })).toString('base64url');
  /** One page of a playlist's items, with a continuation item when more follow. */
  const playlistItems = (list: FakeYouTubePlaylist, offset: number) => {
    const ids = list.videoIds.slice(offset, offset + PLAYLIST_PAGE_SIZE);
    const items: unknown[] = ids.flatMap((id, k) => {
      const v = videos.find((x) => x.id === id);
      return v ? [playlistVideoRenderer(v, list, offset + k)] : [];
    });
    if (offset + PLAYLIST_PAGE_SIZE < list.videoIds.length) {
      items.push({
        continuationItemRenderer: {
          trigger: 'CONTINUATION_TRIGGER_ON_ITEM_SHOWN',
          continuationEndpoint: {
            commandMetadata: { webCommandMetadata: { sendPost: true, apiUrl: '/youtubei/v1/browse' } },
            continuationCommand: {
              token: continuationToken(list, offset + PLAYLIST_PAGE_SIZE),
              request: 'CONTINUATION_REQUEST_TYPE_BROWSE',
            },
          },
        },
      });
    }
    return items;
  };
  const sidebar = (list: FakeYouTubePlaylist) => ({
    playlistSidebarRenderer: {
      items: [
        {
          playlistSidebarPrimaryInfoRenderer: {
            thumbnailRenderer: {
              playlistVideoThumbnailRenderer: { thumbnail: thumbnails(list.videoIds[0] ?? 'none') },
            },
            title: { runs: [{ text: list.title }] },
            stats: [
              { runs: [{ text: String(list.videoIds.length) }, { text: ' videos' }] },
              { simpleText: '1,234 views' },
              { runs: [{ text: 'Last updated on ' }, { text: '1 Nov 2026' }] },
            ],
            navigationEndpoint: {
              watchEndpoint: { videoId: list.videoIds[0] ?? '', playlistId: list.id },
            },
            description: { simpleText: 'Fixture playlist.' },
          },
        },
        {
          playlistSidebarSecondaryInfoRenderer: {
            videoOwner: {
              videoOwnerRenderer: {
                thumbnail: { thumbnails: [] },
                title: channelRun({ channel: 'Fixture Channel' } as FakeYouTubeVideo),
                navigationEndpoint: {
                  browseEndpoint: { browseId: 'UCfixturechannel000000000', canonicalBaseUrl: '/@fixture' },
                },
              },
            },
          },
        },
      ],
    },
  });
  const missingPlaylist = () => ({
    responseContext: { serviceTrackingParams: [] },
    alerts: [
      { alertRenderer: { type: 'ERROR', text: { runs: [{ text: 'The playlist does not exist.' }] } } },
    ],
    trackingParams: 'CAAQhGciEwifixture',
    microformat: { microformatDataRenderer: { noindex: true } },
  });
  const browse = (body: InnerTubeBody) => {
    if (body.continuation) {
      let at: { list?: string; offset?: number } = {};
      try {
        at = JSON.parse(Buffer.from(body.continuation, 'base64url').toString('utf8')) as typeof at;
      } catch {
        // an unknown token: YouTube answers 400 INVALID_ARGUMENT
      }
      const list = playlists.find((p) => p.id === at.list && !p.private);
      if (!list || typeof at.offset !== 'number') return null;
      return {
        responseContext: { serviceTrackingParams: [] },
        onResponseReceivedActions: [
          {
            clickTrackingParams: 'CAAQhGciEwifixture',
            appendContinuationItemsAction: {
              continuationItems: playlistItems(list, at.offset),
              targetId: list.id,
            },
          },
        ],
        trackingParams: 'CAAQhGciEwifixture',
      };
    }
    const list = playlists.find((p) => `VL${p.id}` === body.browseId && !p.private);
    if (!list) return missingPlaylist();
    return {
      responseContext: { serviceTrackingParams: [] },
      contents: {
        twoColumnBrowseResultsRenderer: {
          tabs: [
            {
              tabRenderer: {
                selected: true,
                content: {
                  sectionListRenderer: {
                    contents: [
                      {
                        itemSectionRenderer: {
                          contents: [
                            {
                              playlistVideoListRenderer: {
                                contents: playlistItems(list, 0),
                                playlistId: list.id,
                                isEditable: false,
                                canReorder: false,
                                targetId: list.id,
                              },
                            },
                          ],
                        },
                      },
                    ],
                    targetId: list.id,
                  },
                },
                trackingParams: 'CJwDEPCTARhqfixture',
              },
            },
          ],
        },
      },
      metadata: { playlistMetadataRenderer: { title: list.title, description: '' } },
      trackingParams: 'CAAQhGciEwifixture',
      sidebar: sidebar(list),
    };
  };

  // ---- YouTube Music (client WEB_REMIX, the same /youtubei/v1 endpoints): written from youtubei.js's
  // ytmusic parsers (`Search`, `MusicShelf`, `MusicResponsiveListItem`, `PlaylistPanel`, `PlaylistPanelVideo`).
  const artistRun = (name: string, k: number) => ({
    text: name,
    navigationEndpoint: {
      browseEndpoint: {
        browseId: `UCfixtureartist${String(k).padStart(9, '0')}`,
        browseEndpointContextSupportedConfigs: {
          browseEndpointContextMusicConfig: { pageType: 'MUSIC_PAGE_TYPE_ARTIST' },
        },
      },
    },
  });
  const albumRun = (name: string) => ({
    text: name,
    navigationEndpoint: {
      browseEndpoint: {
        browseId: `MPREb_fixture${name.replace(/\W/g, '').slice(0, 10)}`,
        browseEndpointContextSupportedConfigs: {
          browseEndpointContextMusicConfig: { pageType: 'MUSIC_PAGE_TYPE_ALBUM' },
        },
      },
    },
  });
  const sep = { text: ' • ' };
  const musicArtists = (v: FakeYouTubeVideo) => v.music?.artists ?? [v.channel];
  const bylineRuns = (v: FakeYouTubeVideo) => {
    const runs: unknown[] = [];
    musicArtists(v).forEach((a, k) => {
      if (k > 0) runs.push({ text: ' & ' });
      runs.push(artistRun(a, k));
    });
    if (v.music?.album) runs.push(sep, albumRun(v.music.album));
    return runs;
  };
  const watchRun = (v: FakeYouTubeVideo) => ({
    text: v.title,
    navigationEndpoint: {
      watchEndpoint: {
        videoId: v.id,
        watchEndpointMusicSupportedConfigs: {
          watchEndpointMusicConfig: {
            musicVideoType: v.music ? 'MUSIC_VIDEO_TYPE_ATV' : 'MUSIC_VIDEO_TYPE_UGC',
          },
        },
      },
    },
  });
  /** A song row of a search shelf: title column, then "Artist • Album • 3:45". */
  const songRow = (v: FakeYouTubeVideo) => ({
    musicResponsiveListItemRenderer: {
      thumbnail: { musicThumbnailRenderer: { thumbnail: thumbnails(v.id) } },
      flexColumns: [
        {
          musicResponsiveListItemFlexColumnRenderer: {
            text: { runs: [watchRun(v)] },
            displayPriority: 'HIGH',
          },
        },
        {
          musicResponsiveListItemFlexColumnRenderer: {
            text: { runs: [...bylineRuns(v), sep, { text: clock(v.seconds) }] },
            displayPriority: 'HIGH',
          },
        },
      ],
      playlistItemData: { videoId: v.id },
      flexColumnDisplayStyle: 'MUSIC_RESPONSIVE_LIST_ITEM_FLEX_COLUMN_DISPLAY_STYLE_TWO_LINE_STACK',
    },
  });
  const musicWords = (text: string) =>
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  /** YouTube Music's song search: an ISRC finds its song; other words must all be in title, artists or album. */
  const musicSearch = (query: string) => {
    const q = query.trim().replace(/^"|"$/g, '');
    const songs = videos.filter((v) => v.music);
    const byIsrc = songs.filter((v) => v.music?.isrc && v.music.isrc.toLowerCase() === q.toLowerCase());
    const words = musicWords(q);
    const found = byIsrc.length
      ? byIsrc
      : songs.filter((v) => {
          const hay = new Set(musicWords(`${v.title} ${musicArtists(v).join(' ')} ${v.music?.album ?? ''}`));
          return words.length > 0 && words.every((w) => hay.has(w));
        });
    return {
      responseContext: { serviceTrackingParams: [] },
      contents: {
        tabbedSearchResultsRenderer: {
          tabs: [
            {
              tabRenderer: {
                title: 'YT Music',
                selected: true,
                content: {
                  sectionListRenderer: {
                    contents: found.length
                      ? [
                          {
                            musicShelfRenderer: {
                              title: { runs: [{ text: 'Songs' }] },
                              contents: found.map(songRow),
                            },
                          },
                        ]
                      : [
                          {
                            itemSectionRenderer: {
                              contents: [
                                {
                                  messageRenderer: {
                                    text: { runs: [{ text: 'No results found' }] },
                                  },
                                },
                              ],
                            },
                          },
                        ],
                  },
                },
              },
            },
          ],
        },
      },
    };
  };
  const panelVideo = (v: FakeYouTubeVideo, selected: boolean, playlistId?: string) => ({
    playlistPanelVideoRenderer: {
      title: { runs: [{ text: v.title }] },
      longBylineText: { runs: bylineRuns(v) },
      shortBylineText: { runs: [{ text: musicArtists(v)[0] ?? v.channel }] },
      thumbnail: thumbnails(v.id),
      lengthText: {
        runs: [{ text: clock(v.seconds) }],
        accessibility: { accessibilityData: { label: `${v.seconds} seconds` } },
      },
      selected,
      navigationEndpoint: { watchEndpoint: { videoId: v.id, ...(playlistId ? { playlistId } : {}) } },
      videoId: v.id,
      playlistSetVideoId: `fixture-${v.id}`,
    },
  });
  /**
   * YouTube Music's `next` (the player page's queue): for a bare video, the song and an automix preview
   * whose `watchPlaylistEndpoint` (`RDAMVM<id>`) asks for its radio; with that playlist id, the radio: the
   * song, then its related songs. An unknown video: an empty queue.
   */
  const musicNext = (body: InnerTubeBody) => {
    const v = videos.find((x) => x.id === body.videoId);
    const radio = `RDAMVM${body.videoId ?? ''}`;
    const contents: unknown[] = [];
    if (v && body.playlistId === radio) {
      contents.push(panelVideo(v, true, radio));
      for (const id of v.related ?? []) {
        const r = videos.find((x) => x.id === id);
        if (r) contents.push(panelVideo(r, false, radio));
      }
    } else if (v) {
      contents.push(panelVideo(v, true), {
        automixPreviewVideoRenderer: {
          content: {
            automixPlaylistVideoRenderer: {
              navigationEndpoint: { watchPlaylistEndpoint: { playlistId: radio, params: 'wAEB' } },
              automixMode: 'AUTOMIX_MODE_NORMAL',
            },
          },
        },
      });
    }
    const panel =
      body.playlistId === radio && v
        ? { contents, playlistId: radio, isInfinite: true, numItemsToShow: 25 }
        : { contents, isInfinite: true, numItemsToShow: 25 };
    return {
      responseContext: { serviceTrackingParams: [] },
      contents: {
        singleColumnMusicWatchNextResultsRenderer: {
          tabbedRenderer: {
            watchNextTabbedResultsRenderer: {
              tabs: [
                {
                  tabRenderer: {
                    title: 'Up next',
                    content: { musicQueueRenderer: { content: { playlistPanelRenderer: panel } } },
                  },
                },
                { tabRenderer: { title: 'Lyrics', unselectable: true } },
              ],
            },
          },
        },
      },
    };
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && url.pathname === '/videoplayback') {
      log.push(`GET /videoplayback itag=${url.searchParams.get('itag')}`);
      const id = url.searchParams.get('id') ?? '';
      const file = path.join(dir, `${id}.webm`);
      if (
        url.searchParams.get('itag') !== '251' ||
        !videos.some((v) => v.id === id) ||
        url.searchParams.has('s')
      ) {
        res.writeHead(403).end();
        return;
      }
      const size = fs.statSync(file).size;
      const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
      const start = range ? Number(range[1]) : 0;
      const end = range?.[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      if (start >= size) {
        res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
        return;
      }
      res.writeHead(range ? 206 : 200, {
        'content-type': 'audio/webm',
        'accept-ranges': 'bytes',
        'content-length': String(end - start + 1),
        ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
      });
      fs.createReadStream(file, { start, end }).pipe(res);
      return;
    }
    const innertube = /^\/youtubei\/v1\/(config|search|player|browse|next)$/.exec(url.pathname);
    if (req.method !== 'POST' || !innertube) {
      log.push(`${req.method} ${url.pathname}`);
      return json(404, { error: { code: 404, message: 'Not Found', status: 'NOT_FOUND' } });
    }
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => {
      raw += d;
    });
    req.on('end', () => {
      let body: InnerTubeBody;
      try {
        body = JSON.parse(raw) as InnerTubeBody;
      } catch {
        return json(400, {
          error: { code: 400, message: 'Invalid JSON payload received.', status: 'INVALID_ARGUMENT' },
        });
      }
      const client = body.context?.client?.clientName ?? '';
      log.push(`POST ${url.pathname} ${client}`);
      if (mode === 'error5xx') {
        return json(503, {
          error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' },
        });
      }
      if (mode === 'garbage') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>Before you continue to YouTube</title>');
        return;
      }
      if (client === 'WEB_REMIX' && musicMode === 'error5xx') {
        return json(503, {
          error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' },
        });
      }
      if (client === 'WEB_REMIX' && innertube[1] === 'search') {
        musicSearches.push(body.query ?? '');
        return json(200, musicSearch(body.query ?? ''));
      }
      if (client === 'WEB_REMIX' && innertube[1] === 'next') return json(200, musicNext(body));
      if (innertube[1] === 'next') {
        return json(400, {
          error: { code: 400, message: 'Request contains an invalid argument.', status: 'INVALID_ARGUMENT' },
        });
      }
      if (!client) {
        return json(400, {
          error: { code: 400, message: 'Request contains an invalid argument.', status: 'INVALID_ARGUMENT' },
        });
      }
      if (innertube[1] === 'config') {
        return json(200, {
          responseContext: {
            serviceTrackingParams: [],
            globalConfigGroup: {
              rawColdConfigGroup: { configData: 'CAMSFixtureCold' },
              coldHashData: 'CAMSFixtureColdHash',
              hotHashData: 'CAMSFixtureHotHash',
            },
          },
          configData: 'CAMSFixtureConfigData',
        });
      }
      if (innertube[1] === 'search') {
        const answer = () => {
          if (!res.destroyed) json(200, search(body.query ?? ''));
        };
        if (searchDelayMs > 0) setTimeout(answer, searchDelayMs);
        else answer();
        return;
      }
      if (innertube[1] === 'browse') {
        const page = browse(body);
        return page
          ? json(200, page)
          : json(400, {
              error: {
                code: 400,
                message: 'Request contains an invalid argument.',
                status: 'INVALID_ARGUMENT',
              },
            });
      }
      return json(200, player(body.videoId ?? '', client));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: base,
    log,
    musicSearches,
    setMode: (m) => {
      mode = m;
    },
    setMusicMode: (m) => {
      musicMode = m;
    },
    setSearchDelay: (ms) => {
      searchDelayMs = ms;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

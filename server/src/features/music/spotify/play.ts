import {
  MUSIC_LINK_TRACKS_MAX,
  MUSIC_SPOTIFY_LINKS_PER_MINUTE,
  MUSIC_SPOTIFY_MATCH_BUDGET_MS,
  MUSIC_SPOTIFY_MATCH_CONCURRENCY,
  MUSIC_SPOTIFY_SKIP_REASONS,
  MUSIC_TEXTS,
  type SearchResult,
  type SpotifySkipped,
  spotifyQueuedText,
  MUSIC_SPOTIFY_TEXTS as T,
} from '@guildhall/common';
import type { FastifyBaseLogger } from 'fastify';
import type { UsersTable } from '../../../db/schema.ts';
import { fail } from '../../../platform/errors.ts';
import type { Clock } from '../../../platform/feature.ts';
import type { MusicCommands } from '../front.ts';
import { type SpotifyClient, type SpotifyTrack, SpotifyUnavailable } from './client.ts';
import { isSpotifyUrl, parseSpotifyLink } from './links.ts';
import { matchTracks } from './match.ts';

export type SpotifyPlayOptions = {
  /** Null when SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET are not both set: a link gets the configure message. */
  client: SpotifyClient | null;
  clock: Clock;
  log: FastifyBaseLogger;
  /** YouTube Music's song search (the YouTube source's `searchSongs`): matching asks it first. */
  searchSongs: (query: string, max: number) => Promise<SearchResult[]>;
  /** Matching's whole time limit (default MUSIC_SPOTIFY_MATCH_BUDGET_MS). */
  budgetMs?: number;
};

/**
 * The music commands with Spotify links (issue 48) in `play`: the link is read through Spotify's Web API on
 * the instance the member asked (it needs no bot), each track matched to a song (YouTube Music by ISRC or by
 * artist and title, then the YouTube and SoundCloud sources' own search), and the matched songs queued through `playMany` (on the bot's holder, like every
 * command), shown with Spotify's title, artists and artwork. Unmatched tracks come back as `skipped` with
 * their reason. Any other link goes to `play` as before.
 */
export function withSpotify(commands: MusicCommands, o: SpotifyPlayOptions): MusicCommands {
  const recent = new Map<string, number[]>();
  /** Spotify links per member per minute, on this instance (each reaches Spotify and up to 200 searches). */
  const admit = (memberId: string) => {
    const now = o.clock.now();
    const kept = (recent.get(memberId) ?? []).filter((at) => now - at < 60_000);
    if (kept.length >= MUSIC_SPOTIFY_LINKS_PER_MINUTE) {
      const wait = Math.max(1, Math.ceil((60_000 - (now - (kept[0] ?? now))) / 1000));
      throw fail('RATE_LIMITED', T.tooMany, { 'Retry-After': String(wait) });
    }
    kept.push(now);
    recent.set(memberId, kept);
    if (recent.size > 10_000) recent.clear(); // a bound on the map, not a rule
  };

  const playSpotify = async (caller: UsersTable, guildId: string, url: string, userId?: string) => {
    if (!o.client) throw fail('SPOTIFY_NOT_CONFIGURED', T.notConfigured);
    if (userId !== undefined && userId !== caller.discord_id)
      throw fail('USER_ID_MISMATCH', MUSIC_TEXTS.userIdMismatch);
    const link = parseSpotifyLink(url);
    if (!link) throw fail('UNSUPPORTED_URL', T.unsupported);
    admit(caller.discord_id);
    const owner = caller.discord_id;
    const list = await o.client.tracks(link, MUSIC_LINK_TRACKS_MAX, owner).catch((err: unknown) => {
      if (!(err instanceof SpotifyUnavailable)) throw err;
      o.log.warn({ err: err.message }, 'music: Spotify lookup failed');
      throw fail('PLATFORM_UNAVAILABLE', T.unavailable);
    });
    if (!list) throw fail('LIST_NOT_FOUND', T.notFound);
    if (list.tracks.length === 0) throw fail('PLAYLIST_EMPTY', T.empty);
    const matched = await matchTracks(
      list.tracks,
      (query, platform) =>
        platform === 'youtube-music' ? o.searchSongs(query, 5) : commands.search(query, 5, platform),
      {
        concurrency: MUSIC_SPOTIFY_MATCH_CONCURRENCY,
        budgetMs: o.budgetMs ?? MUSIC_SPOTIFY_MATCH_BUDGET_MS,
      },
    );
    const songs: SearchResult[] = [];
    const skipped: SpotifySkipped[] = [];
    for (const m of matched) {
      if ('song' in m) songs.push(shownAsSpotify(m.song, m.track));
      else
        skipped.push({
          title: m.track.name || 'Unknown track',
          artist: m.track.artists.join(', '),
          reason: m.reason,
        });
    }
    if (songs.length === 0) {
      const why = skipped[0]?.reason ?? MUSIC_SPOTIFY_SKIP_REASONS.noMatch;
      throw fail('SPOTIFY_NO_MATCH', `${T.noneMatched} (${why})`);
    }
    const result = await commands.playMany(caller, guildId, songs, false);
    const song =
      result.action === 'playing' && result.status.currentSong?.entryId === result.firstEntryId
        ? result.status.currentSong
        : result.status.queue.find((s) => s.entryId === result.firstEntryId);
    if (!song) throw fail('PLAY_FAILED', MUSIC_TEXTS.audioUnavailable);
    const position = result.status.queue.findIndex((s) => s.entryId === result.firstEntryId);
    return {
      song,
      action: result.action,
      position: result.action === 'queued' ? position : null,
      status: result.status,
      added: result.added,
      message: spotifyQueuedText({
        queued: result.added,
        total: list.total,
        cut: list.total > list.tracks.length,
        skipped: skipped.length,
        duplicates: result.duplicates,
      }),
      skipped,
    };
  };

  return {
    ...commands,
    play: (caller, guildId, url, userId) =>
      isSpotifyUrl(url)
        ? playSpotify(caller, guildId, url, userId)
        : commands.play(caller, guildId, url, userId),
  };
}

/** The matched song, shown as the member asked for it: Spotify's title, artists and cover. */
function shownAsSpotify(song: SearchResult, track: SpotifyTrack): SearchResult {
  return {
    ...song,
    title: track.name,
    uploader: track.artists.join(', '),
    thumbnail: track.artwork ?? song.thumbnail,
  };
}

import { z } from 'zod';
import { shownTextProblem } from './files.ts';
import { MusicAutoplayMiss, MusicServerOptions } from './music-queue.ts';
import { SpotifySkipped } from './music-spotify.ts';

/**
 * Music control (portal-tools §2–§9): constants, verbatim texts, the realtime room and event, and the
 * request and response schemas of every `/api/music` route. Both the server and the panel use these.
 */

// ---- Constants (portal-tools §9, plus our own limits documented in docs/music.md) ----

export const MUSIC_STATUS_POLL_MS = 10_000;
export const MUSIC_SEARCH_MAX_RESULTS = 10;
export const MUSIC_EQ_MIN_DB = -12;
export const MUSIC_EQ_MAX_DB = 12;
export const MUSIC_EQ_DEBOUNCE_MS = 300;
/** Recent history: kept on the server, shown in the Current Session panel. */
export const MUSIC_HISTORY_KEPT = 5;
export const MUSIC_HISTORY_SHOWN = 3;
export const MUSIC_SAVED_MARKER_MS = 3000;
export const MUSIC_SUCCESS_TOAST_MS = 3000;
export const MUSIC_ERROR_TOAST_MS = 5000;
/** The bot leaves a voice channel after this long alone or with nothing to play (issue 11). */
export const MUSIC_IDLE_LEAVE_MS = 5 * 60 * 1000;
// Our limits (docs/music.md).
export const MUSIC_QUERY_MAX_CHARS = 200;
export const MUSIC_URL_MAX_CHARS = 2000;
export const MUSIC_QUEUE_MAX = 500;
export const PLAYLIST_NAME_MAX_CHARS = 100;
export const PLAYLIST_MAX_SONGS = 500;
/** Playlists one member may have per server, and how many the list returns per page (issue 26). */
export const PLAYLISTS_PER_MEMBER_MAX = 100;
export const PLAYLISTS_PAGE_SIZE = 50;
/** Volume in per cent: 0 (silent) to 200 (twice the amplitude, +6 dB), 100 by default; kept per server. */
export const MUSIC_VOLUME_MIN = 0;
export const MUSIC_VOLUME_MAX = 200;
export const MUSIC_VOLUME_DEFAULT = 100;
/** A paused song keeps the bot in its channel this long before the idle rule applies (issue 27). */
export const MUSIC_PAUSED_LEAVE_MS = 30 * 60 * 1000;
/** The most tracks one YouTube playlist link or SoundCloud set queues. */
export const MUSIC_LINK_TRACKS_MAX = 100;
/** The longest song duration a playlist entry may carry (a day, in seconds). */
export const MUSIC_DURATION_MAX_SECONDS = 24 * 60 * 60;

/** Loop: off, the song playing, or the whole queue. */
export const MUSIC_LOOP_MODES = ['off', 'track', 'queue'] as const;
export const MusicLoopMode = z.enum(MUSIC_LOOP_MODES, {
  error: `mode must be one of ${MUSIC_LOOP_MODES.join(', ')}`,
});
export type MusicLoopMode = z.infer<typeof MusicLoopMode>;
export const MUSIC_LOOP_LABELS: Record<MusicLoopMode, string> = {
  off: 'Loop off',
  track: 'Loop song',
  queue: 'Loop queue',
};

/** The three sources: the spec's video platform, audio platform, and the portal's own file library. */
export const MUSIC_PLATFORMS = ['youtube', 'soundcloud', 'library'] as const;
export const MusicPlatform = z.enum(MUSIC_PLATFORMS, {
  error: `platform must be one of ${MUSIC_PLATFORMS.join(', ')}`,
});
export type MusicPlatform = z.infer<typeof MusicPlatform>;
export const MUSIC_PLATFORM_LABELS: Record<MusicPlatform, string> = {
  youtube: 'YouTube',
  soundcloud: 'SoundCloud',
  library: 'Library',
};
/** A library song's url: `library:<file id>` (a file of the shared file system). */
export const LIBRARY_URL_PREFIX = 'library:';
export function libraryUrl(fileId: string): string {
  return `${LIBRARY_URL_PREFIX}${fileId}`;
}

export const MUSIC_EFFECTS = ['nightcore', 'slowed', 'bassboost', 'echo', '8d'] as const;
export const MusicEffect = z.enum(MUSIC_EFFECTS, {
  error: `effects must be among ${MUSIC_EFFECTS.join(', ')}`,
});
export type MusicEffect = z.infer<typeof MusicEffect>;
export const MUSIC_EFFECT_LABELS: Record<MusicEffect, string> = {
  nightcore: 'Nightcore',
  slowed: 'Slowed',
  bassboost: 'Bass Boost',
  echo: 'Echo',
  '8d': '8D Audio',
};

/** The five equalizer bands (portal-tools §9), in display order, with their ranges in Hz. */
export const EQ_BANDS = [
  { key: 'bass', label: 'Bass', fromHz: 60, toHz: 250 },
  { key: 'lowMid', label: 'Low Mid', fromHz: 250, toHz: 500 },
  { key: 'mid', label: 'Mid', fromHz: 500, toHz: 2000 },
  { key: 'highMid', label: 'High Mid', fromHz: 2000, toHz: 4000 },
  { key: 'treble', label: 'Treble', fromHz: 4000, toHz: 16000 },
] as const;
export type EqBand = (typeof EQ_BANDS)[number]['key'];

// ---- Texts fixed by the spec (portal-tools §5, §8), and the server's own messages ----

export const MUSIC_TEXTS = {
  notAuthenticated: 'Not authenticated',
  discordIdMissing: 'Discord user ID not found. Please re-login.',
  songAlreadyAdded: 'Song already added to this playlist!',
  confirmDeletePlaylist: 'Are you sure you want to delete this playlist?',
  playlistNameRequired: 'Playlist name is required',
  // banner messages (client side)
  searchFailed: 'Search failed',
  playFailed: 'Failed to play song',
  pauseResumeFailed: 'Failed to pause/resume',
  skipFailed: 'Failed to skip',
  stopFailed: 'Failed to stop',
  restartFailed: 'Failed to restart',
  clearQueueFailed: 'Failed to clear queue',
  reorderFailed: 'Failed to reorder queue',
  loadPlaylistFailed: 'Failed to load playlist',
  createPlaylistFailed: 'Failed to create playlist',
  deletePlaylistFailed: 'Failed to delete playlist',
  addSongFailed: 'Failed to add song to playlist',
  removeSongFailed: 'Failed to remove song',
  playPlaylistFailed: 'Failed to play playlist',
  queuePlaylistFailed: 'Failed to add playlist to queue',
  visibilityFailed: 'Failed to update playlist visibility',
  effectFailed: 'Failed to apply effect',
  eqFailed: 'Failed to apply EQ',
  seekFailed: 'Seek failed',
  controlFailed: 'Failed to change playback',
  // states and badges
  playing: 'Playing',
  paused: 'Paused',
  stopped: 'Stopped',
  seeking: 'Seeking',
  idle: 'Idle',
  online: 'Online',
  offline: 'Offline',
  available: 'Available',
  unavailable: 'Unavailable',
  // server messages
  botOffline: 'The music bot is offline. An administrator has to set DISCORD_BOT_TOKEN (see the README).',
  notInVoice: 'You are not in a voice channel on this server. Join one, then try again.',
  userIdMismatch: 'userId must be your own Discord user ID',
  guildNotFound: 'The bot is not on that server',
  nothingPlaying: 'Nothing is playing',
  queueFull: `The queue is full (${MUSIC_QUEUE_MAX} songs)`,
  playlistFull: `A playlist holds at most ${PLAYLIST_MAX_SONGS} songs`,
  playlistNotFound: 'Playlist not found',
  playlistSongNotFound: 'Song not found in this playlist',
  playlistEmpty: 'This playlist has no songs',
  tooManyPlaylists: `You can have at most ${PLAYLISTS_PER_MEMBER_MAX} playlists on a server`,
  notPlaylistCreator: 'Only the creator of this playlist can change it',
  songNotFound: 'Song not found',
  listNotFound: 'That playlist does not exist or is private',
  unsupportedUrl: 'That link is not a YouTube, SoundCloud, Spotify or Library song',
  platformUnavailable: 'That platform is unavailable right now',
  indexOutOfRange: 'fromIndex and toIndex must be positions in the queue',
  reconnecting: 'Reconnecting',
  notInBotChannel:
    'Join the voice channel the bot is playing in to change what everyone hears (moderators excepted).',
  queueEntryNotFound: 'That song is no longer in the queue',
  skipped: 'Skipped',
  encoderUnavailable: 'The music bot cannot play audio right now. An administrator has been told.',
  audioUnavailable: 'Failed to play song: the platform did not deliver the audio',
  voiceUnreachable: "Discord's voice server cannot be reached right now. Try again in a moment.",
} as const;

/** The answer to a skip that counted as a vote. */
export const skipVoteText = (votes: number, needed: number) =>
  `Vote counted: ${votes} of ${needed} needed to skip`;

/** A playlist link longer than the cap: what was queued and what was left out. */
export const linkCutText = (queued: number, total: number) =>
  `Queued the first ${queued} of ${total} tracks (at most ${MUSIC_LINK_TRACKS_MAX} per link)`;

/** Member-facing: a platform that cannot be used now (the operator's reason goes to the log and /readyz). */
export const platformUnavailableText = (name: string) => `${name} is not available right now`;

/** The 503 a control gets while the bot's link to Discord is down (seconds: how long so far). */
export const botReconnectingText = (what: 'Discord' | 'the voice channel', seconds: number) =>
  `The music bot lost its connection to ${what} ${seconds} s ago and is reconnecting. Try again in a moment.`;

/** The spec's fallback for an API error without a text (portal-tools §8). */
export const apiRequestFailedText = (status: number) => `API request failed (${status})`;

// ---- Realtime (docs/realtime.md): one room per guild ----

/** server → client on the guild's room: `MusicStatusPush`, on every change of that guild's playback. */
export const MUSIC_STATUS_EVENT = 'music:status';
export const MUSIC_ROOM_TYPE = 'music';
export function musicRoom(guildId: string): string {
  return `${MUSIC_ROOM_TYPE}:${guildId}`;
}

// ---- Entities (portal-tools §3) ----

const snowflake = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .regex(/^\d{1,20}$/, { error: `${what} must be a Discord ID (digits only)` });

export const GuildIdParams = z.object({ guildId: snowflake('guildId') });
export const PlaylistIdParams = z.object({ id: z.uuid({ error: 'Playlist id must be a UUID' }) });
export const PlaylistGuildParams = PlaylistIdParams.extend({ guildId: snowflake('guildId') });
export const PlaylistSongParams = PlaylistIdParams.extend({
  songId: z.uuid({ error: 'Song id must be a UUID' }),
});

export const RequestedBy = z.object({
  /** The requester's Discord id (absent on entries made before it was recorded). */
  id: z.string().optional(),
  avatar: z.string().nullable(),
  displayName: z.string(),
});
export type RequestedBy = z.infer<typeof RequestedBy>;

/** What every song carries, wherever it appears (search result, queue, playlist). */
const songFields = {
  /** The spec's save key: the source's own id (kept under this name because the spec's songInfo uses it). */
  youtube_id: z.string(),
  title: z.string(),
  uploader: z.string(),
  /** Whole seconds (0 when unknown, e.g. a live stream). */
  duration: z.number().int().nonnegative(),
  url: z.string(),
  thumbnail: z.string().nullable(),
  platform: MusicPlatform,
};

/** A song as search returns it. */
export const SearchResult = z.object({
  /** The source's own id (YouTube video id, SoundCloud track id, library file id); the same as `youtube_id`. */
  id: z.string(),
  ...songFields,
});
export type SearchResult = z.infer<typeof SearchResult>;

/** A song in the queue or playing: a search result plus who asked for it and a queue-entry id. */
export const Song = SearchResult.extend({
  /** Unique per queue entry (the same song may be queued twice). */
  entryId: z.string(),
  requestedBy: RequestedBy,
  /** Added by autoplay when the queue ended (issue 48), not by a member. */
  autoplay: z.boolean().optional(),
});
export type Song = z.infer<typeof Song>;

export const EqSettings = z.object(
  Object.fromEntries(
    EQ_BANDS.map((b) => [
      b.key,
      z
        .number({ error: `${b.key} must be a number` })
        .int({ error: `${b.key} must be a whole number of dB` })
        .min(MUSIC_EQ_MIN_DB, { error: `${b.key} must be from ${MUSIC_EQ_MIN_DB} to ${MUSIC_EQ_MAX_DB}` })
        .max(MUSIC_EQ_MAX_DB, { error: `${b.key} must be from ${MUSIC_EQ_MIN_DB} to ${MUSIC_EQ_MAX_DB}` }),
    ]),
  ) as Record<EqBand, z.ZodNumber>,
  { error: 'eq must be an object with bass, lowMid, mid, highMid and treble' },
);
export type EqSettings = z.infer<typeof EqSettings>;
export const FLAT_EQ: EqSettings = { bass: 0, lowMid: 0, mid: 0, highMid: 0, treble: 0 };

export const VoiceChannelInfo = z.object({ id: z.string(), name: z.string() });
export type VoiceChannelInfo = z.infer<typeof VoiceChannelInfo>;

/**
 * Playback status (portal-tools §3) plus what the panel needs to render it without guessing.
 * `elapsedTime` is the position in the song in seconds at `serverTime`; while playing it advances by
 * `playbackRate` song-seconds per real second (1.25 with nightcore, 0.8 with slowed).
 */
/**
 * The bot's link to Discord, honestly: online (gateway ready, and the voice connection ready when it is
 * in a channel), reconnecting (either is down and being re-established), offline (no bot, or not logged in).
 */
export const MUSIC_BOT_STATES = ['online', 'reconnecting', 'offline'] as const;
export const MusicBotState = z.enum(MUSIC_BOT_STATES);
export type MusicBotState = z.infer<typeof MusicBotState>;

export const PlaybackStatus = z.object({
  guildId: z.string(),
  /** The bot's gateway session is ready now (false while it is reconnecting or offline). */
  connected: z.boolean(),
  /** The badge: online, reconnecting (with since when), or offline. */
  botState: MusicBotState,
  /** Since when the bot is reconnecting (ISO time), null otherwise. */
  botStateSince: z.string().nullable(),
  isPlaying: z.boolean(),
  isPaused: z.boolean(),
  state: z.enum(['playing', 'paused', 'stopped']),
  currentSong: Song.nullable(),
  queue: z.array(Song),
  /** Most recent first, at most MUSIC_HISTORY_KEPT. */
  history: z.array(Song),
  activeEffects: z.array(MusicEffect),
  eqSettings: EqSettings,
  elapsedTime: z.number().nonnegative(),
  playbackRate: z.number().positive(),
  serverTime: z.string(),
  /** The channel the bot is in, null when not in one. */
  voiceChannel: VoiceChannelInfo.nullable(),
  /** Humans in the bot's channel. */
  listeners: z.number().int().nonnegative(),
  /** In a channel with nothing playing or nobody listening: the badge shows "Idle" (a pause is not idle). */
  idle: z.boolean(),
  /** 0–200 %, kept per server. */
  volume: z.number().int().min(MUSIC_VOLUME_MIN).max(MUSIC_VOLUME_MAX),
  /** Loudness normalisation (EBU R128) of every track, on by default. */
  normalize: z.boolean(),
  loop: MusicLoopMode,
  /** The server's queue options (issue 48): fair queue, no duplicates. */
  options: MusicServerOptions,
  /**
   * Nothing plays because the queue ended with autoplay on and autoplay added nothing (issue 48): why, so the
   * panel says so instead of a plain "Nothing is playing". Absent or null otherwise.
   */
  autoplayMiss: MusicAutoplayMiss.nullable().optional(),
  /** Votes to skip the current song: who voted, and how many votes skip it (more than half the listeners). */
  skipVotes: z.object({
    voters: z.array(z.object({ id: z.string(), displayName: z.string() })),
    needed: z.number().int().nonnegative(),
  }),
});
export type PlaybackStatus = z.infer<typeof PlaybackStatus>;

export const Guild = z.object({
  id: z.string(),
  name: z.string(),
  memberCount: z.number().int().nonnegative(),
});
export type Guild = z.infer<typeof Guild>;

export const PlatformHealth = z.object({
  platform: MusicPlatform,
  name: z.string(),
  available: z.boolean(),
  /** Why it is unavailable (null when available). */
  reason: z.string().nullable(),
  checkedAt: z.string(),
});
export type PlatformHealth = z.infer<typeof PlatformHealth>;

export const Playlist = z.object({
  id: z.string(),
  guild_id: z.string(),
  name: z.string(),
  is_public: z.boolean(),
  /** The creator's Discord id (the spec matches the creator by discord_id). */
  created_by: z.string(),
  creator_name: z.string(),
  song_count: z.number().int().nonnegative(),
  updated_at: z.string(),
});
export type Playlist = z.infer<typeof Playlist>;

export const PlaylistSong = z.object({
  /** This playlist entry's id. */
  id: z.string(),
  ...songFields,
  position: z.number().int().nonnegative(),
});
export type PlaylistSong = z.infer<typeof PlaylistSong>;

export const PlaylistWithSongs = Playlist.extend({ songs: z.array(PlaylistSong) });
export type PlaylistWithSongs = z.infer<typeof PlaylistWithSongs>;

// ---- Requests ----

const trimmedText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .min(1, { error: `${field} is required` })
    .max(max, { error: `${field} must be at most ${max} characters` });

const index = (field: string) =>
  z
    .number({
      error: (iss) => (iss.input === undefined ? `${field} is required` : `${field} must be a number`),
    })
    .int({ error: `${field} must be a whole number` })
    .min(0, { error: `${field} must be 0 or more` });

const bodyObject = <T extends z.ZodRawShape>(shape: T, what: string) =>
  z.object(shape, { error: `Request body must be a JSON object with ${what}` });

export const MusicSearchBody = bodyObject(
  {
    query: trimmedText('query', MUSIC_QUERY_MAX_CHARS),
    maxResults: z
      .number({ error: 'maxResults must be a number' })
      .int({ error: 'maxResults must be a whole number' })
      .min(1, { error: `maxResults must be from 1 to ${MUSIC_SEARCH_MAX_RESULTS}` })
      .max(MUSIC_SEARCH_MAX_RESULTS, { error: `maxResults must be from 1 to ${MUSIC_SEARCH_MAX_RESULTS}` })
      .default(MUSIC_SEARCH_MAX_RESULTS),
    platform: MusicPlatform.default('youtube'),
  },
  'a query',
);
export type MusicSearchBody = z.input<typeof MusicSearchBody>;

/** `userId` is optional: the caller's Discord id comes from the session; another id is refused. */
export const MusicPlayBody = bodyObject(
  {
    guildId: snowflake('guildId'),
    url: trimmedText('url', MUSIC_URL_MAX_CHARS),
    userId: z.string({ error: 'userId must be text' }).optional(),
  },
  'guildId and url',
);
export type MusicPlayBody = z.input<typeof MusicPlayBody>;

export const QueueReorderBody = bodyObject(
  { fromIndex: index('fromIndex'), toIndex: index('toIndex') },
  'fromIndex and toIndex',
);
export type QueueReorderBody = z.infer<typeof QueueReorderBody>;

/** `time` in seconds; the server clamps it to 0–100 % of the song. */
export const SeekBody = bodyObject(
  {
    time: z
      .number({
        error: (iss) => (iss.input === undefined ? 'time is required' : 'time must be a number of seconds'),
      })
      .refine(Number.isFinite, { error: 'time must be a finite number of seconds' }),
  },
  'a time',
);
export type SeekBody = z.infer<typeof SeekBody>;

/** The complete set of effects that should be on (an empty list turns them all off). */
export const EffectsBody = bodyObject(
  {
    effects: z
      .array(MusicEffect, { error: 'effects must be a list' })
      .max(MUSIC_EFFECTS.length, { error: 'effects lists each effect at most once' })
      .refine((l) => new Set(l).size === l.length, { error: 'effects lists each effect at most once' }),
  },
  'an effects list',
);
export type EffectsBody = z.infer<typeof EffectsBody>;

export const EqualizerBody = bodyObject({ eq: EqSettings }, 'an eq object');

export const VolumeBody = bodyObject(
  {
    volume: z
      .number({ error: 'volume must be a number from 0 to 200' })
      .int({ error: 'volume must be a whole number of per cent' })
      .min(MUSIC_VOLUME_MIN, { error: 'volume must be from 0 to 200' })
      .max(MUSIC_VOLUME_MAX, { error: 'volume must be from 0 to 200' }),
  },
  'a volume',
);
export type VolumeBody = z.infer<typeof VolumeBody>;

export const LoopBody = bodyObject({ mode: MusicLoopMode }, 'a loop mode');
export type LoopBody = z.infer<typeof LoopBody>;

export const NormalizeBody = bodyObject(
  { enabled: z.boolean({ error: 'enabled must be true or false' }) },
  'enabled',
);
export type NormalizeBody = z.infer<typeof NormalizeBody>;

/** One entry of a guild's queue (its entryId from the status). */
export const QueueEntryParams = GuildIdParams.extend({
  entryId: z.uuid({ error: 'entryId must be a queue entry id' }),
});
export type EqualizerBody = z.infer<typeof EqualizerBody>;

/** Text shown to other members: trimmed, NFC, no control, invisible or text-direction characters (issue 26). */
const shownText = (field: string, max: number, emptyMessage?: string) =>
  z
    .string({ error: emptyMessage ?? `${field} must be text` })
    .trim()
    .transform((v) => v.normalize('NFC'))
    .superRefine((value, ctx) => {
      if (value.length === 0) {
        ctx.addIssue({ code: 'custom', message: emptyMessage ?? `${field} is required` });
        return;
      }
      if ([...value].length > max) {
        ctx.addIssue({ code: 'custom', message: `${field} must be at most ${max} characters` });
        return;
      }
      const problem = shownTextProblem(value, field);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

/** A playlist name: the same character rules as file names (files' `shownTextProblem`), 1–100 characters. */
const playlistName = shownText('Playlist name', PLAYLIST_NAME_MAX_CHARS, MUSIC_TEXTS.playlistNameRequired);
const isPublic = z.boolean({ error: 'isPublic must be true or false' });

export const PlaylistCreateBody = bodyObject(
  {
    name: playlistName,
    isPublic: isPublic.default(false),
  },
  'a name',
);
export type PlaylistCreateBody = z.input<typeof PlaylistCreateBody>;

/** The spec's "song info sent when saving". */
/** Plain text with no control characters (NUL included: PostgreSQL refuses it) and valid Unicode. */
const plainText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .max(max, { error: `${field} must be at most ${max} characters` })
    .refine((v) => shownTextProblem(v, field) === null, {
      error: `${field} must not contain control, invisible or text-direction characters`,
    });

export const SongInfo = z.object(
  {
    youtube_id: shownText('songInfo.youtube_id', 200),
    title: shownText('songInfo.title', 300),
    uploader: plainText('songInfo.uploader', 200).default(''),
    duration: z
      .number({ error: 'songInfo.duration must be a number of seconds' })
      .int({ error: 'songInfo.duration must be whole seconds' })
      .nonnegative({ error: 'songInfo.duration must be 0 or more' })
      .max(MUSIC_DURATION_MAX_SECONDS, {
        error: `songInfo.duration must be at most ${MUSIC_DURATION_MAX_SECONDS} seconds`,
      })
      .default(0),
    url: shownText('songInfo.url', MUSIC_URL_MAX_CHARS),
    thumbnail: plainText('songInfo.thumbnail', MUSIC_URL_MAX_CHARS).nullable().optional(),
  },
  { error: 'songInfo must be an object with youtube_id, title and url' },
);
export const PlaylistAddSongBody = bodyObject({ songInfo: SongInfo }, 'a songInfo');
export type PlaylistAddSongBody = z.input<typeof PlaylistAddSongBody>;

/** Play (clearQueue defaults to true) or queue (false) a playlist. */
export const PlaylistPlayBody = bodyObject(
  {
    shuffle: z.boolean({ error: 'shuffle must be true or false' }).default(false),
    clearQueue: z.boolean({ error: 'clearQueue must be true or false' }).optional(),
  },
  'shuffle',
).default({ shuffle: false });
export type PlaylistPlayBody = z.input<typeof PlaylistPlayBody>;

/** Rename (an addition to the spec's table: only the creator renames). */
export const PlaylistRenameBody = bodyObject(
  {
    name: playlistName,
  },
  'a name',
);
export type PlaylistRenameBody = z.infer<typeof PlaylistRenameBody>;

export const PlaylistVisibilityBody = bodyObject({ isPublic }, 'isPublic');
export type PlaylistVisibilityBody = z.infer<typeof PlaylistVisibilityBody>;

// ---- Responses: {success: true, data} (errors use ApiError from api.ts) ----

/** What a play did: started at once, or went into the queue. */
const PlayAction = z.enum(['playing', 'queued']);

const ok = <T extends z.ZodRawShape>(data: T) => z.object({ success: z.literal(true), data: z.object(data) });

export const MusicGuildsResponse = ok({ guilds: z.array(Guild), defaultGuildId: z.string().nullable() });
export type MusicGuildsResponse = z.infer<typeof MusicGuildsResponse>;
/** GET /status/{guildId}: `data` is the playback status. */
export const MusicStatusResponse = z.object({ success: z.literal(true), data: PlaybackStatus });
export type MusicStatusResponse = z.infer<typeof MusicStatusResponse>;
export const MusicPlatformsResponse = ok({ platforms: z.array(PlatformHealth) });
export type MusicPlatformsResponse = z.infer<typeof MusicPlatformsResponse>;
export const MusicSearchResponse = ok({ results: z.array(SearchResult) });
export type MusicSearchResponse = z.infer<typeof MusicSearchResponse>;
export const MusicPlayResponse = ok({
  song: Song,
  action: PlayAction,
  /** Queue position (0-based) when queued, null when playing now. */
  position: z.number().int().nullable(),
  status: PlaybackStatus,
  /** A list link (a SoundCloud set): how many tracks were queued, and what to tell (cut at the cap). */
  added: z.number().int().nonnegative().optional(),
  message: z.string().optional(),
  /** A Spotify link (issue 48): its tracks that were not queued, each with the reason. */
  skipped: z.array(SpotifySkipped).optional(),
});
export type MusicPlayResponse = z.infer<typeof MusicPlayResponse>;
/** pause, resume, skip, stop, restart, clear queue, reorder, seek, effects, equalizer. */
export const MusicControlResponse = ok({ message: z.string(), status: PlaybackStatus });
export type MusicControlResponse = z.infer<typeof MusicControlResponse>;
export const PlaylistsResponse = ok({
  playlists: z.array(Playlist),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
/** `GET /playlists/{guildId}?cursor=…&limit=…`: newest change first, PLAYLISTS_PAGE_SIZE by default. */
export const PlaylistsQuery = z.object({
  cursor: z
    .string({ error: 'cursor must be text' })
    .max(200, { error: 'cursor is not one this server gave' })
    .optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: `limit must be from 1 to ${PLAYLISTS_PAGE_SIZE}` })
    .max(PLAYLISTS_PAGE_SIZE, { error: `limit must be from 1 to ${PLAYLISTS_PAGE_SIZE}` })
    .default(PLAYLISTS_PAGE_SIZE),
});
export type PlaylistsQuery = z.infer<typeof PlaylistsQuery>;
export type PlaylistsResponse = z.infer<typeof PlaylistsResponse>;
export const PlaylistResponse = ok({ playlist: PlaylistWithSongs });
export type PlaylistResponse = z.infer<typeof PlaylistResponse>;
export const PlaylistSongResponse = ok({ song: PlaylistSong, playlist: Playlist });
export type PlaylistSongResponse = z.infer<typeof PlaylistSongResponse>;
export const PlaylistDeletedResponse = ok({ message: z.string() });
export type PlaylistDeletedResponse = z.infer<typeof PlaylistDeletedResponse>;
export const PlaylistPlayResponse = ok({
  message: z.string(),
  /** How many songs went into the queue (or started). */
  added: z.number().int().nonnegative(),
  action: PlayAction,
  status: PlaybackStatus,
});
export type PlaylistPlayResponse = z.infer<typeof PlaylistPlayResponse>;

/** The payload pushed on MUSIC_STATUS_EVENT to `musicRoom(guildId)`. */
export const MusicStatusPush = z.object({ status: PlaybackStatus });
export type MusicStatusPush = z.infer<typeof MusicStatusPush>;

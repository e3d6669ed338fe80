import {
  DEFAULT_MUSIC_OPTIONS,
  MUSIC_VOLUME_DEFAULT,
  type MusicBotState,
  memberFaceOf,
  type PlaybackStatus,
  type Playlist,
  type PlaylistSong,
} from '@guildhall/common';
import type { UsersTable } from '../../db/schema.ts';
import { playbackRate } from './ffmpeg.ts';
import type { GuildPlayer, PlayerSettings, StoredPlayback } from './player.ts';
import type { PlaylistRow } from './repo.ts';
import type { MusicPlaylistSongsTable } from './tables.ts';

export const DEFAULT_SETTINGS: PlayerSettings = {
  volume: MUSIC_VOLUME_DEFAULT,
  normalize: true,
  loop: 'off',
  options: DEFAULT_MUSIC_OPTIONS,
};

/** The bot's link as the badge shows it. */
export type BotLink = { state: MusicBotState; since: string | null };

/** The status of a guild nobody has played on yet, or when the bot is offline. */
export function emptyStatus(
  guildId: string,
  connected: boolean,
  link: BotLink,
  settings: PlayerSettings = DEFAULT_SETTINGS,
): PlaybackStatus {
  return {
    guildId,
    connected,
    botState: link.state,
    botStateSince: link.since,
    isPlaying: false,
    isPaused: false,
    state: 'stopped',
    currentSong: null,
    queue: [],
    history: [],
    activeEffects: [],
    eqSettings: { bass: 0, lowMid: 0, mid: 0, highMid: 0, treble: 0 },
    elapsedTime: 0,
    playbackRate: 1,
    serverTime: new Date().toISOString(),
    voiceChannel: null,
    listeners: 0,
    idle: false,
    volume: settings.volume,
    normalize: settings.normalize,
    loop: settings.loop,
    options: { ...settings.options },
    skipVotes: { voters: [], needed: 1 },
  };
}

export function presentStatus(
  guildId: string,
  player: GuildPlayer,
  humans: string[],
  connected: boolean,
  link: BotLink,
): PlaybackStatus {
  const state = player.isPaused ? 'paused' : player.isPlaying ? 'playing' : 'stopped';
  const listeners = humans.length;
  return {
    guildId,
    connected,
    botState: link.state,
    botStateSince: link.since,
    isPlaying: player.isPlaying,
    isPaused: player.isPaused,
    state,
    currentSong: player.current,
    queue: [...player.queue],
    history: [...player.history],
    activeEffects: [...player.effects],
    eqSettings: { ...player.eq },
    elapsedTime: Math.round(player.elapsed() * 1000) / 1000,
    playbackRate: player.playbackRate(),
    serverTime: new Date().toISOString(),
    voiceChannel: player.channel,
    listeners: player.channel ? listeners : 0,
    // A pause is not idle (it has its own, much longer limit); nothing playing or nobody listening is.
    idle: player.channel !== null && (state === 'stopped' || listeners === 0),
    volume: player.volume,
    normalize: player.normalize,
    loop: player.loop,
    options: { ...player.options },
    skipVotes: {
      voters: [...player.skipVotes]
        .filter(([id]) => humans.includes(id))
        .map(([id, displayName]) => ({ id, displayName })),
      needed: Math.floor(listeners / 2) + 1,
    },
  };
}

/**
 * A guild's status while no instance holds a running bot (a handover, a restart, the bot logging in):
 * the stored playback, with the badge saying "Reconnecting" — never an Idle that is not true (issue 42).
 */
export function storedStatus(
  guildId: string,
  stored: StoredPlayback | null,
  settings: PlayerSettings,
  since: string | null,
): PlaybackStatus {
  const base = emptyStatus(guildId, false, { state: 'reconnecting', since }, settings);
  if (!stored) return base;
  const state = stored.current ? (stored.paused ? 'paused' : 'playing') : 'stopped';
  return {
    ...base,
    isPlaying: state === 'playing',
    isPaused: state === 'paused',
    state,
    currentSong: stored.current,
    queue: stored.queue,
    history: stored.history,
    activeEffects: stored.effects,
    eqSettings: stored.eq,
    elapsedTime: stored.current ? stored.position : 0,
    // The position does not move while nobody plays it.
    playbackRate: stored.current ? playbackRate(stored.effects) : 1,
    voiceChannel: stored.current ? stored.channel : null,
  };
}

export function presentPlaylist(row: PlaylistRow): Playlist {
  return {
    id: row.id,
    guild_id: row.guild_id,
    name: row.name,
    is_public: row.is_public === 1,
    created_by: row.created_by,
    creator_name: row.creator_global_name ?? row.creator_username ?? 'Unknown',
    song_count: Number(row.song_count ?? 0),
    updated_at: row.updated_at,
  };
}

export function presentPlaylistSong(row: MusicPlaylistSongsTable): PlaylistSong {
  return {
    id: row.id,
    youtube_id: row.song_key,
    title: row.title,
    uploader: row.uploader,
    duration: Number(row.duration),
    url: row.url,
    thumbnail: row.thumbnail,
    platform: row.platform,
    position: Number(row.position),
  };
}

/** Who asked for a song, as the Now Playing card shows them. */
export function requesterOf(user: UsersTable): { id: string; avatar: string | null; displayName: string } {
  // Their server nickname and avatar where they have one (issue 43), else their Discord account's.
  const face = memberFaceOf(user);
  return { id: user.discord_id, avatar: face.avatarUrl, displayName: face.name };
}

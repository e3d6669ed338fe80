import type { MusicLoopMode, MusicPlatform } from '@guildhall/common';

/** Music tables (migration 006). */
export type MusicPlaylistsTable = {
  id: string;
  guild_id: string;
  name: string;
  /** 0 or 1. */
  is_public: number;
  /** The creator's Discord id. */
  created_by: string;
  created_at: string;
  updated_at: string;
};

export type MusicPlaylistSongsTable = {
  id: string;
  playlist_id: string;
  /** The source's id of the song (the spec's youtube_id). */
  song_key: string;
  platform: MusicPlatform;
  title: string;
  uploader: string;
  duration: number;
  url: string;
  thumbnail: string | null;
  position: number;
  added_at: string;
};

/** Per-server settings (migration 020). */
export type MusicGuildSettingsTable = {
  guild_id: string;
  volume: number;
  /** 0 or 1. */
  normalize: number;
  loop: MusicLoopMode;
  /** 0 or 1 (migration 085): songs taken round-robin by requester. */
  fair_queue: number;
  /** 0 or 1 (migration 085): a song already playing or queued is refused. */
  no_duplicates: number;
  /** 0 or 1 (migration 087): a related song plays when the queue ends. */
  autoplay: number;
  updated_at: string;
};

/** The lease on the Discord bot (migration 070): one row per lease name. */
export type MusicBotLeaseTable = {
  name: string;
  /** The instance holding it (host, process, start). */
  holder: string;
  /** Fencing token: grows by one with every new holder; stored state carries the writer's. */
  epoch: number;
  /** ISO time after which another instance may take it. */
  expires_at: string;
  acquired_at: string;
};

/** A server's playback as last stored (migration 070); songs, queue, effects and EQ as JSON text. */
export type MusicGuildStateTable = {
  guild_id: string;
  /** The lease epoch of the holder that wrote it: an older holder's write is refused. */
  epoch: number;
  channel_id: string | null;
  channel_name: string | null;
  current_song: string | null;
  queue: string;
  history: string;
  effects: string;
  eq: string;
  /** 0 or 1. */
  paused: number;
  /** Seconds into the current song. */
  position: number;
  updated_at: string;
};

/** One song that started playing on a server (migration 086): the last 200 per server are kept. */
export type MusicHistoryTable = {
  id: string;
  guild_id: string;
  platform: MusicPlatform;
  /** The source's id of the song. */
  song_key: string;
  title: string;
  uploader: string;
  duration: number;
  url: string;
  thumbnail: string | null;
  /** The requester's Discord id; null for autoplay's songs and entries made before ids were kept. */
  requester_id: string | null;
  requester_name: string;
  requester_avatar: string | null;
  /** ISO time it started playing. */
  played_at: string;
};

export type MusicTables = {
  music_history: MusicHistoryTable;
  music_bot_lease: MusicBotLeaseTable;
  music_guild_state: MusicGuildStateTable;
  music_guild_settings: MusicGuildSettingsTable;
  music_playlists: MusicPlaylistsTable;
  music_playlist_songs: MusicPlaylistSongsTable;
};

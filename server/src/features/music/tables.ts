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
  updated_at: string;
};

export type MusicTables = {
  music_guild_settings: MusicGuildSettingsTable;
  music_playlists: MusicPlaylistsTable;
  music_playlist_songs: MusicPlaylistSongsTable;
};

import {
  apiRequestFailedText,
  type EffectsBody,
  type EqSettings,
  httpStatusText,
  MUSIC_OPTION_PATHS,
  MUSIC_SEARCH_MAX_RESULTS,
  MUSIC_TEXTS,
  MusicControlResponse,
  MusicGuildsResponse,
  MusicHistoryResponse,
  type MusicLoopMode,
  MusicLyricsResponse,
  type MusicOptionKey,
  type MusicPlatform,
  MusicPlatformsResponse,
  MusicPlayResponse,
  MusicSearchResponse,
  MusicStatusResponse,
  PlaylistDeletedResponse,
  PlaylistPlayResponse,
  PlaylistResponse,
  PlaylistSongResponse,
  PlaylistsResponse,
  type SearchResult,
} from '@guildhall/common';
import { ApiError, apiFetch, getStoredToken } from '../../api/client.ts';

/** The music calls (portal-tools §7 Music); every response is parsed with the shared contract. */
const BASE = '/api/music';
const id = (value: string) => encodeURIComponent(value);

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Music calls need the stored login token, else "Not authenticated" (portal-tools §6, §8). */
async function call(method: Method, path: string, body?: unknown): Promise<unknown> {
  const token = getStoredToken();
  if (!token) throw new ApiError(MUSIC_TEXTS.notAuthenticated, 401);
  return apiFetch(`${BASE}${path}`, { method, body, token });
}

/**
 * The text a failed call shows: the response's error text, otherwise "API request failed ({status})"
 * (portal-tools §8); `fallback` (the action's own message) when there is neither.
 */
export function errorText(e: unknown, fallback: string): string {
  if (e instanceof ApiError) {
    if (e.status > 0 && e.message === httpStatusText(e.status)) return apiRequestFailedText(e.status);
    return e.message || fallback;
  }
  return fallback;
}

export const fetchGuilds = async () => MusicGuildsResponse.parse(await call('GET', '/guilds')).data;
export const fetchStatus = async (guildId: string) =>
  MusicStatusResponse.parse(await call('GET', `/status/${id(guildId)}`)).data;
export const fetchLyrics = async (guildId: string) =>
  MusicLyricsResponse.parse(await call('GET', `/lyrics/${id(guildId)}`)).data;
/** The server's history (issue 48), newest first; `q` searches title and artist. */
export const fetchHistory = async (guildId: string, q: string) =>
  MusicHistoryResponse.parse(
    await call('GET', `/history/${id(guildId)}${q ? `?q=${encodeURIComponent(q)}` : ''}`),
  ).data.entries;
export const fetchPlatforms = async () =>
  MusicPlatformsResponse.parse(await call('GET', '/platforms')).data.platforms;

export async function search(query: string, platform: MusicPlatform): Promise<SearchResult[]> {
  const body = { query, platform, maxResults: MUSIC_SEARCH_MAX_RESULTS };
  return MusicSearchResponse.parse(await call('POST', '/search', body)).data.results;
}

export async function play(guildId: string, url: string, userId: string) {
  return MusicPlayResponse.parse(await call('POST', '/play', { guildId, url, userId })).data;
}

export type ControlAction = 'pause' | 'resume' | 'skip' | 'stop' | 'restart';
export async function control(action: ControlAction, guildId: string) {
  return MusicControlResponse.parse(await call('POST', `/${action}/${id(guildId)}`)).data;
}
export const clearQueue = async (guildId: string) =>
  MusicControlResponse.parse(await call('DELETE', `/queue/${id(guildId)}`)).data;
export const reorderQueue = async (guildId: string, fromIndex: number, toIndex: number) =>
  MusicControlResponse.parse(await call('PUT', `/queue/${id(guildId)}/reorder`, { fromIndex, toIndex })).data;
export const seek = async (guildId: string, time: number) =>
  MusicControlResponse.parse(await call('POST', `/seek/${id(guildId)}`, { time })).data;
export const setEffects = async (guildId: string, effects: EffectsBody['effects']) =>
  MusicControlResponse.parse(await call('POST', `/effects/${id(guildId)}`, { effects })).data;
export const setEqualizer = async (guildId: string, eq: EqSettings) =>
  MusicControlResponse.parse(await call('POST', `/equalizer/${id(guildId)}`, { eq })).data;

export const setVolume = async (guildId: string, volume: number) =>
  MusicControlResponse.parse(await call('POST', `/volume/${id(guildId)}`, { volume })).data;
export const setLoop = async (guildId: string, mode: MusicLoopMode) =>
  MusicControlResponse.parse(await call('POST', `/loop/${id(guildId)}`, { mode })).data;
export const setNormalize = async (guildId: string, enabled: boolean) =>
  MusicControlResponse.parse(await call('POST', `/normalize/${id(guildId)}`, { enabled })).data;
/** Fair queue or no duplicates (issue 48): moderators and above. */
export const setOption = async (guildId: string, option: MusicOptionKey, enabled: boolean) =>
  MusicControlResponse.parse(await call('POST', `/${MUSIC_OPTION_PATHS[option]}/${id(guildId)}`, { enabled }))
    .data;
export const shuffleQueue = async (guildId: string) =>
  MusicControlResponse.parse(await call('POST', `/shuffle/${id(guildId)}`)).data;
export const removeFromQueue = async (guildId: string, entryId: string) =>
  MusicControlResponse.parse(await call('DELETE', `/queue/${id(guildId)}/${id(entryId)}`)).data;
export const playNext = async (guildId: string, entryId: string) =>
  MusicControlResponse.parse(await call('POST', `/queue/${id(guildId)}/${id(entryId)}/next`)).data;

export const fetchPlaylists = async (guildId: string) =>
  PlaylistsResponse.parse(await call('GET', `/playlists/${id(guildId)}`)).data.playlists;
export const createPlaylist = async (guildId: string, name: string, isPublic: boolean) =>
  PlaylistResponse.parse(await call('POST', `/playlists/${id(guildId)}`, { name, isPublic })).data.playlist;
export const fetchPlaylist = async (playlistId: string) =>
  PlaylistResponse.parse(await call('GET', `/playlist/${id(playlistId)}`)).data.playlist;
export const deletePlaylist = async (playlistId: string) =>
  PlaylistDeletedResponse.parse(await call('DELETE', `/playlist/${id(playlistId)}`)).data;

/** The spec's "song info sent when saving". */
export type SongInfo = {
  youtube_id: string;
  title: string;
  uploader: string;
  duration: number;
  url: string;
  thumbnail: string | null;
};
export const addPlaylistSong = async (playlistId: string, songInfo: SongInfo) =>
  PlaylistSongResponse.parse(await call('POST', `/playlist/${id(playlistId)}/songs`, { songInfo })).data;
export const removePlaylistSong = async (playlistId: string, songId: string) =>
  PlaylistResponse.parse(await call('DELETE', `/playlist/${id(playlistId)}/songs/${id(songId)}`)).data
    .playlist;
export const playPlaylist = async (playlistId: string, guildId: string, shuffle: boolean) =>
  PlaylistPlayResponse.parse(
    await call('POST', `/playlist/${id(playlistId)}/play/${id(guildId)}`, { shuffle, clearQueue: true }),
  ).data;
export const queuePlaylist = async (playlistId: string, guildId: string, shuffle: boolean) =>
  PlaylistPlayResponse.parse(
    await call('POST', `/playlist/${id(playlistId)}/queue/${id(guildId)}`, { shuffle, clearQueue: false }),
  ).data;
export const setPlaylistVisibility = async (playlistId: string, isPublic: boolean) =>
  PlaylistResponse.parse(await call('PUT', `/playlist/${id(playlistId)}/visibility`, { isPublic })).data
    .playlist;

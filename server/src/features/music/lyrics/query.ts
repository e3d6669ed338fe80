import type { Song } from '@guildhall/common';

export type LyricsQuery = {
  /** Null when the song says nothing usable about its artist (a library file named only by its title). */
  artist: string | null;
  track: string;
  /** Whole seconds; 0 when unknown. */
  duration: number;
};

const AUDIO_EXTENSION = /\.(mp3|wav|ogg|opus|flac|m4a|aac|webm|mka|oga)$/i;
/** Decorations video titles carry that are not part of the song's name. */
const DECORATION =
  /\s*[([](?:official|lyrics?|lyric video|audio|video|visuali[sz]er|hd|hq|4k|remaster(?:ed)?|mv)[^)\]]*[)\]]/gi;

/**
 * What to ask LRCLIB for a song: "Artist - Title" titles (YouTube uploads, library files named that way)
 * are split; otherwise the uploader is the artist (YouTube's "… - Topic" channels are the artist's own),
 * except for library songs, whose uploader is the portal's "Library".
 */
export function lyricsQueryFor(
  song: Pick<Song, 'title' | 'uploader' | 'duration' | 'platform'>,
): LyricsQuery {
  const title = song.title.replace(AUDIO_EXTENSION, '').replace(DECORATION, '').trim();
  const dash = title.match(/^(.+?)\s+[-–—]\s+(.+)$/);
  if (dash?.[1] && dash[2]) return { artist: dash[1].trim(), track: dash[2].trim(), duration: song.duration };
  const uploader = song.platform === 'library' ? '' : song.uploader.replace(/\s+-\s+Topic$/i, '').trim();
  return { artist: uploader || null, track: title || song.title, duration: song.duration };
}

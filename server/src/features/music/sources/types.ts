import type { MusicPlatform, SearchResult } from '@guildhall/common';
import type { TrackInput } from '../ffmpeg.ts';

export type SourceHealth = { available: boolean; reason: string | null };

/** One place music comes from: search it, recognise and resolve its links, and hand ffmpeg the audio. */
export type MusicSource = {
  readonly platform: MusicPlatform;
  search(query: string, maxResults: number): Promise<SearchResult[]>;
  /** Whether a song url belongs to this source. */
  owns(url: string): boolean;
  /** The song behind a url (title, duration…); null when it does not exist. */
  resolve(url: string): Promise<SearchResult | null>;
  /**
   * The same without waiting for what a probe of the audio must find (issue 48): the song with its duration
   * when known, else 0, and the duration to come. A song that plays at once then starts its ffmpeg beside the
   * probe instead of after it. Absent: `resolve` is as fast.
   */
  resolveNow?(url: string): Promise<{ found: SearchResult; duration: Promise<number> } | null>;
  /** Where ffmpeg reads the song's audio, looked up at play time (stream URLs expire). */
  input(song: SearchResult): Promise<TrackInput>;
  /** Whether a url is a list of songs (a SoundCloud set) rather than one song. */
  isList?(url: string): boolean;
  /** The songs of a list link, at most `max`, and how many it holds in all; null when it is not a list. */
  resolveList?(url: string, max: number): Promise<{ songs: SearchResult[]; total: number } | null>;
  /**
   * Songs related to one (autoplay, issue 48), best first, at most `max`; absent where the source has no
   * such list.
   */
  related?(song: SearchResult, max: number): Promise<SearchResult[]>;
  /** A real request to the service (or the store); never a fixed answer. */
  health(): Promise<SourceHealth>;
};

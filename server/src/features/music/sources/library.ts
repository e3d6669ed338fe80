import { LIBRARY_URL_PREFIX, libraryUrl, type SearchResult } from '@guildhall/common';
import type { Db } from '../../../db/index.ts';
import type { ProcessSpawner } from '../../../platform/process/index.ts';
import {
  findLibraryFile,
  type LibraryFile,
  listLibraryFolderFiles,
  searchLibraryFiles,
} from '../../files/index.ts';
import type { LibraryLoopback } from './loopback.ts';
import { probeDuration } from './probe.ts';
import type { MusicSource } from './types.ts';

/** Audio files the library offers (by extension; ffmpeg decodes all of them). */
export const AUDIO_EXTENSIONS = [
  '.mp3',
  '.wav',
  '.ogg',
  '.opus',
  '.flac',
  '.m4a',
  '.aac',
  '.webm',
  '.mka',
  '.oga',
];

const SEARCH_PROBE_WAIT_MS = 1500;
const PLAY_PROBE_WAIT_MS = 10_000;
const RELATED_PROBE_WAIT_MS = 500;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The portal's own shared file system as a music platform: searched by name, played from the blob store (through the loopback reader). */
export function librarySource(
  db: Db,
  loopback: LibraryLoopback,
  ffprobePath: string,
  processes: ProcessSpawner,
): MusicSource {
  // Durations need a probe of the bytes; a file's content never changes under its id, so cache them.
  const durations = new Map<string, Promise<number>>();
  const durationOf = (file: LibraryFile) => {
    let d = durations.get(file.id);
    if (!d) {
      d = loopback
        .urlFor(file)
        .then((url) => probeDuration(processes, ffprobePath, url))
        .catch(() => 0);
      durations.set(file.id, d);
    }
    return d;
  };
  /** Search does not wait long for a probe (it goes on and fills the cache); playing waits longer. */
  const durationWithin = (file: LibraryFile, ms: number) =>
    Promise.race([durationOf(file), new Promise<number>((r) => setTimeout(() => r(0), ms).unref())]);
  const toResult = async (file: LibraryFile, waitMs: number): Promise<SearchResult> => ({
    id: file.id,
    youtube_id: file.id,
    title: file.name.replace(/\.[^.]+$/, ''),
    uploader: 'Library',
    duration: await durationWithin(file, waitMs),
    url: libraryUrl(file.id),
    thumbnail: null,
    platform: 'library',
  });
  return {
    platform: 'library',
    async search(query, maxResults) {
      const files = await searchLibraryFiles(db, query, AUDIO_EXTENSIONS, maxResults);
      return Promise.all(files.map((f) => toResult(f, SEARCH_PROBE_WAIT_MS)));
    },
    owns: (url) => url.startsWith(LIBRARY_URL_PREFIX),
    async resolve(url) {
      const id = url.slice(LIBRARY_URL_PREFIX.length);
      if (!UUID.test(id)) return null;
      const file = await findLibraryFile(db, id);
      return file ? toResult(file, PLAY_PROBE_WAIT_MS) : null;
    },
    async resolveNow(url) {
      const id = url.slice(LIBRARY_URL_PREFIX.length);
      if (!UUID.test(id)) return null;
      const file = await findLibraryFile(db, id);
      if (!file) return null;
      // A probed duration is in the cache already; a new one is a process start, done beside ffmpeg's.
      return { found: await toResult(file, 0), duration: durationOf(file) };
    },
    /** The other audio files of the song's folder, by name from the one after it (a folder is an album). */
    async related(song, max) {
      const files = await listLibraryFolderFiles(db, song.id, AUDIO_EXTENSIONS, 500);
      const at = files.findIndex((f) => f.id === song.id);
      const after = [...files.slice(at + 1), ...files.slice(0, Math.max(0, at))].slice(0, max);
      // Autoplay picks within 1.5 s: a length not probed by then shows as unknown.
      return Promise.all(after.map((f) => toResult(f, RELATED_PROBE_WAIT_MS)));
    },
    async input(song) {
      const file = await findLibraryFile(db, song.id);
      if (!file) throw new Error('The library file is gone');
      // Over loopback HTTP with Range, so ffmpeg's -ss seeks instead of decoding up to the position.
      // The ticket lives 12 h; restarts of the song within 30 min reuse it (no database read on a change's path).
      return { kind: 'url', url: await loopback.urlFor(file), reusableUntil: Date.now() + 30 * 60_000 };
    },
    async health() {
      try {
        await searchLibraryFiles(db, '', AUDIO_EXTENSIONS, 1);
        return { available: true, reason: null };
      } catch (e) {
        return { available: false, reason: `The file library cannot be read: ${(e as Error).message}` };
      }
    },
  };
}

import { THUMBNAIL_MAX_PX } from '@guildhall/common';
import type { ProcessSpawner } from '../../../platform/process/index.ts';
import { imageThumbnail, type Thumbnail } from './image.ts';

/** A poster that takes longer than this is given up (a broken or hostile file). */
const POSTER_TIMEOUT_MS = 60_000;
/** ffmpeg's one scaled frame as PNG is far below this; more means something is wrong. */
const MAX_FRAME_BYTES = 8 * 1024 * 1024;

/**
 * A video's poster: one frame, a second in (the first frame is often black), or the first frame of a
 * clip shorter than that. ffmpeg reads the file from `url` (seeking with Range), scales the frame down
 * and hands it over as PNG; the WebP is made like an image's.
 */
export async function videoPoster(
  processes: ProcessSpawner,
  ffmpegPath: string,
  url: string,
): Promise<Thumbnail | null> {
  for (const at of ['1', '0']) {
    const frame = await grabFrame(processes, ffmpegPath, url, at);
    if (frame) return imageThumbnail(frame);
  }
  return null;
}

/** ffmpeg's arguments for one poster frame of a video at `at`, as PNG on stdout (the container test runs them too). */
export function posterFrameArgs(url: string, at: string): string[] {
  const size = THUMBNAIL_MAX_PX * 2; // the WebP step scales it down again, sharper than one step
  return [
    '-nostdin',
    '-v',
    'error',
    '-ss',
    at,
    '-i',
    url,
    '-frames:v',
    '1',
    '-an',
    '-sn',
    '-vf',
    `scale=${size}:${size}:force_original_aspect_ratio=decrease`,
    '-f',
    'image2pipe',
    '-c:v',
    'png',
    'pipe:1',
  ];
}

/**
 * One frame as PNG, through the platform's process spawner (a fork from the server would stall its event
 * loop). Rejects when ffmpeg cannot be started at all: not the file's fault, not cached as "no thumbnail".
 */
async function grabFrame(
  processes: ProcessSpawner,
  ffmpegPath: string,
  url: string,
  at: string,
): Promise<Buffer | null> {
  const child = await processes.spawn(ffmpegPath, posterFrameArgs(url, at));
  const parts: Buffer[] = [];
  let bytes = 0;
  const timer = setTimeout(() => child.kill(), POSTER_TIMEOUT_MS);
  child.output.on('data', (d: Buffer) => {
    bytes += d.length;
    if (bytes > MAX_FRAME_BYTES) child.kill();
    else parts.push(d);
  });
  const { code } = await child.finished;
  clearTimeout(timer);
  return code === 0 && bytes > 0 && bytes <= MAX_FRAME_BYTES ? Buffer.concat(parts) : null;
}
